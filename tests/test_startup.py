"""Every manage.py command starts without the PDF and chart library (issue 11): ReportLab is
imported by the views that print, when they print, not by Django's set-up or the URL map."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.urls import get_resolver
get_resolver().url_patterns  # imports every view module, as `manage.py check` does
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] == "reportlab")))
"""


def test_setup_and_the_url_map_do_not_import_reportlab():
    env = {**os.environ, "DEBUG": "true", "PYTHONPATH": str(ROOT)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
