from django.urls import path

app_name = "events"
urlpatterns: list = []
