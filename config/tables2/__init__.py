"""django-tables2, installed without importing it at start-up (issue 11: `manage.py` under 0.5 s).

Importing django_tables2 imports its JSONColumn, which imports django.contrib.postgres and with
it psycopg: a tenth of a second for every manage.py command, on SQLite too. So the app is
installed from here (apps.Tables2Config): from the package's own folder, found without importing
it (its templates, translations and static files), with its template tags read the first time a
template loads them (templatetags/django_tables2.py). The product's tables are imported by the
views that show them."""
