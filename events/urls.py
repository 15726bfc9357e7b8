from django.urls import path

from . import language, views, views_accounts, views_checklist, views_games, views_site

app_name = "events"
urlpatterns = [
    path("", views.home, name="home"),
    path("start/", views.landing, name="landing"),
    path("me/pin/", views.my_pin, name="my_pin"),
    path("me/password/", views_accounts.password_change, name="password_change"),
    path("locked/", views_accounts.unlock, name="unlock"),
    path("setup/", views_accounts.setup, name="login_setup"),
    path("language/", language.set_language, name="set_language"),
    path("health/", views_site.health, name="health"),
    path("trust/", views_site.trust, name="trust"),
    path("trust/fair-cage-ca.crt", views_site.trust_ca, name="trust_ca"),
    path("trust/fair-cage-ca.pem", views_site.trust_ca, {"encoding": "pem"}, name="trust_ca_pem"),
    path("events/new/", views.event_create, name="create"),
    path("events/<slug:slug>/", views.event_detail, name="detail"),
    path("events/<slug:slug>/checklist/", views_checklist.checklist, name="checklist"),
    path("events/<slug:slug>/supplier/", views_checklist.supplier, name="supplier"),
    path("events/<slug:slug>/tables/", views.tables, name="tables"),
    path("events/<slug:slug>/games/", views_games.games, name="games"),
    path("events/<slug:slug>/tables/<str:table>/layout/", views_games.wheel_layout, name="wheel_layout"),
    path("events/<slug:slug>/tables/<str:table>/poster.pdf", views_games.poster, name="poster"),
    path("events/<slug:slug>/disputes/", views_games.calculators, name="calculators"),
    path("events/<slug:slug>/chips/", views.chips, name="chips"),
    path("events/<slug:slug>/people/", views.people, name="people"),
    path("events/<slug:slug>/people/<slug:code>/setup-code/", views.setup_code_new, name="setup_code_new"),
    path("events/<slug:slug>/logins/", views.login_give, name="login_give"),
    path("events/<slug:slug>/roles/", views.role_add, name="role_add"),
    path("events/<slug:slug>/registration/", views.registration_change, name="registration_change"),
    path("events/<slug:slug>/people/<slug:code>/declarations/", views.person_declarations, name="person_declarations"),
    path("events/<slug:slug>/days/", views.days, name="days"),
    path("events/<slug:slug>/days/<str:date>/", views.roster, name="roster"),
    path("events/<slug:slug>/days/<str:date>/open/", views.day_open, name="day_open"),
    path("events/<slug:slug>/compliance/", views.compliance, name="compliance"),
]
