from django.urls import path

from . import views, views_registers
from .views_people import mine

app_name = "cage"
urlpatterns = [
    path("<slug:slug>/", views.home, name="home"),
    path("<slug:slug>/panels/", views.home_panels, name="home_panels"),
    path("<slug:slug>/slips/new/<str:slip_type>/", views.slip_new, name="slip_new"),
    path("<slug:slug>/slips/<int:pk>/", views.slip_detail, name="slip"),
    path("<slug:slug>/close/", views.day_close, name="day_close"),
    path("<slug:slug>/reconcile/", views.day_reconcile, name="day_reconcile"),
    path("<slug:slug>/me/", mine, name="mine"),
]

# The registers (cage.views_registers).
urlpatterns += [
    path("<slug:slug>/register/", views_registers.register, name="register"),
    path("<slug:slug>/register/voids/", views_registers.voids, name="voids"),
]
