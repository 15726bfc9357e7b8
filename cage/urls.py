from django.urls import path

from . import views, views_fill_requests, views_paper, views_print, views_registers
from .views_people import mine

app_name = "cage"
urlpatterns = [
    path("<slug:slug>/", views.home, name="home"),
    path("<slug:slug>/panels/", views.home_panels, name="home_panels"),
    path("<slug:slug>/slips/new/<str:slip_type>/", views.slip_new, name="slip_new"),
    path("<slug:slug>/slips/<int:pk>/", views.slip_detail, name="slip"),
    path("<slug:slug>/slips/<int:pk>/slip.pdf", views_print.slip_pdf, name="slip_pdf"),
    path("<slug:slug>/slips/<int:pk>/print/", views.slip_print, name="slip_print"),
    path("<slug:slug>/slips/<int:pk>/sign/", views.slip_sign, name="slip_sign"),
    path("<slug:slug>/queue/", views.queue, name="queue"),
    path("<slug:slug>/queue/<int:pk>/approve/", views.queue_approve, name="queue_approve"),
    path("<slug:slug>/queue/approve/", views.queue_batch, name="queue_batch"),
    path("<slug:slug>/queue/<int:pk>/void/", views.queue_void, name="queue_void"),
    path("<slug:slug>/queue/<int:pk>/refuse/", views.queue_refuse, name="queue_refuse"),
    path("<slug:slug>/queue/logins/<int:person_id>/confirm/", views.login_confirm, name="login_confirm"),
    path(
        "<slug:slug>/queue/given/<int:appointment_id>/acknowledge/",
        views.appointment_acknowledge,
        name="appointment_acknowledge",
    ),
    path("<slug:slug>/openers/<int:pk>/sign-off/", views.opener_sign_off, name="opener_sign_off"),
    path("<slug:slug>/close/", views.day_close, name="day_close"),
    path("<slug:slug>/close/sign/", views.day_close_sign, name="day_close_sign"),
    path("<slug:slug>/reconcile/", views.day_reconcile, name="day_reconcile"),
    path("<slug:slug>/me/", mine, name="mine"),
]

# The registers (cage.views_registers).
urlpatterns += [
    path("<slug:slug>/register/", views_registers.register, name="register"),
    path("<slug:slug>/register/voids/", views_registers.voids, name="voids"),
]

# Paper slips for when the system is down, and the cage's state on paper (cage.views_paper).
urlpatterns += [
    path("<slug:slug>/paper/", views_paper.paper, name="paper"),
    path("<slug:slug>/paper/print/", views_paper.paper_print, name="paper_print"),
    path("<slug:slug>/paper/<int:book>/reprint/", views_paper.paper_reprint, name="paper_reprint"),
    path("<slug:slug>/paper/printed/<int:printing>/book.pdf", views_paper.paper_pdf, name="paper_pdf"),
    path("<slug:slug>/inventory.pdf", views_paper.inventory_pdf, name="inventory_pdf"),
    path("<slug:slug>/paper/find/", views_paper.paper_find, name="paper_find"),
    path("<slug:slug>/paper/<int:book>/written/", views_paper.paper_written, name="paper_written"),
    path("<slug:slug>/paper/<int:book>/close/", views_paper.paper_close, name="paper_close"),
    path("<slug:slug>/paper/<int:book>/<int:number>/", views_paper.paper_enter, name="paper_enter"),
    path("<slug:slug>/paper/<int:book>/<int:number>/void/", views_paper.paper_void, name="paper_void"),
    path("<slug:slug>/paper/signatures/<int:signature>/confirm/", views_paper.paper_confirm, name="paper_confirm"),
]

# Printing a slip: the terminal's paper and receipt printer, and a slip sent to that printer (cage.views_print).
urlpatterns += [
    path("<slug:slug>/slips/<int:pk>/print/terminal/", views_print.print_terminal, name="slip_print_terminal"),
    path("<slug:slug>/slips/<int:pk>/print/printer/", views_print.print_on_printer, name="slip_print_printer"),
]

# A dealer's fill requests (cage.views_fill_requests): asked for from My slips, answered at the cage home.
urlpatterns += [
    path("<slug:slug>/fill-requests/", views_fill_requests.fill_request_ask, name="fill_request_ask"),
    path(
        "<slug:slug>/fill-requests/<int:request_id>/withdraw/",
        views_fill_requests.fill_request_withdraw,
        name="fill_request_withdraw",
    ),
    path(
        "<slug:slug>/fill-requests/<int:request_id>/decline/",
        views_fill_requests.fill_request_decline,
        name="fill_request_decline",
    ),
]
