"""Every manage.py command starts without the heavy libraries it may not need (issue 11): ReportLab
is imported by the views that print, when they print, and django-tables2 (which brings psycopg,
the PostgreSQL driver, with it) by the pages that show a table, not by Django's set-up, the URL map
or the template engine."""

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
from django.template import engines
engines["django"].engine  # lists every template tag library, as `manage.py check` does
heavy = ("reportlab", "django_tables2", "psycopg", "psycopg2")
print(json.dumps(sorted({m.split(".")[0] for m in sys.modules} & set(heavy))))
"""


def test_setup_the_url_map_and_the_templates_import_no_pdf_table_or_postgresql_library():
    env = {**os.environ, "DEBUG": "true", "PYTHONPATH": str(ROOT)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("DATABASE_URL", None)  # SQLite, the laptop's: PostgreSQL's own driver is loaded when it is used
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_the_tables_app_is_django_tables2s_own_folder_and_its_tags_load_on_first_use():
    import django_tables2
    from django.apps import apps
    from django.template import engines

    app = apps.get_app_config("django_tables2")
    assert Path(app.path) == Path(django_tables2.__file__).parent  # its templates, translations, static
    library = engines["django"].engine.template_libraries["django_tables2"]
    assert {"render_table", "querystring_replace", "render_attrs"} <= set(library.tags)
    engines["django"].from_string("{% load render_table from django_tables2 %}{% load django_tables2 %}")
