from django.urls import path

app_name = "cage"
urlpatterns: list = []
