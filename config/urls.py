from django.urls import include, path

from events.views_accounts import LoginView, LogoutView

urlpatterns = [
    # A `next` of the site's root lands by role, as no `next` does (events.views_accounts.LoginView).
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", LogoutView.as_view(), name="logout"),
    path("cage/", include("cage.urls")),
    path("reports/", include("reports.urls")),
    path("audit/", include("reports.audit_trail.urls")),
    path("", include("events.urls")),
]

# Refusals explain themselves and keep the event's navigation.
handler403 = "cage.views_people.refused"
# Not found says what is missing in the reader's words, never Django's internal English sentence.
handler404 = "events.not_found.not_found"
