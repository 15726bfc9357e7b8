from django.urls import path

from . import views

app_name = "events"
urlpatterns = [
    path("", views.home, name="home"),
    path("me/pin/", views.my_pin, name="my_pin"),
    path("events/new/", views.event_create, name="create"),
    path("events/<slug:slug>/", views.event_detail, name="detail"),
    path("events/<slug:slug>/tables/", views.tables, name="tables"),
    path("events/<slug:slug>/chips/", views.chips, name="chips"),
    path("events/<slug:slug>/people/", views.people, name="people"),
    path("events/<slug:slug>/roles/", views.role_add, name="role_add"),
    path("events/<slug:slug>/registration/", views.registration_change, name="registration_change"),
    path("events/<slug:slug>/days/", views.days, name="days"),
    path("events/<slug:slug>/days/<str:date>/", views.roster, name="roster"),
    path("events/<slug:slug>/days/<str:date>/open/", views.day_open, name="day_open"),
    path("events/<slug:slug>/compliance/", views.compliance, name="compliance"),
]
