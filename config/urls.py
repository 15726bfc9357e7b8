from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("cage/", include("cage.urls")),
    path("reports/", include("reports.urls")),
    path("audit/", include("reports.audit_trail.urls")),
    path("", include("events.urls")),
]

# Refusals explain themselves and keep the event's navigation.
handler403 = "cage.views_people.refused"
