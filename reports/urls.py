from django.urls import path

from . import views

app_name = "reports"
urlpatterns = [
    path("<slug:slug>/", views.event_report, name="event"),
    path("<slug:slug>/report.json", views.event_report_json, name="event_json"),
]
