from django.urls import path

from . import views

app_name = "audit"
urlpatterns = [
    path("", views.unattached_trail, name="logins"),
    path("<slug:slug>/", views.event_trail, name="event"),
]
