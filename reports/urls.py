from django.urls import path

from . import views, views_filing, views_proceeds, views_trust

app_name = "reports"
urlpatterns = [
    path("<slug:slug>/", views.event_report, name="event"),
    path("<slug:slug>/report.json", views.event_report_json, name="event_json"),
    path("<slug:slug>/report.csv", views.event_report_csv, name="event_csv"),
    path("<slug:slug>/report.xlsx", views.event_report_xlsx, name="event_xlsx"),
    path("<slug:slug>/sign/", views.event_report_sign, name="event_sign"),
    path("<slug:slug>/due/", views_filing.report_due, name="report_due"),
    path("<slug:slug>/filed/", views_filing.report_file, name="report_file"),
    path("<slug:slug>/financial-report.pdf", views.event_report_pdf, name="event_pdf"),
    path("<slug:slug>/days/<str:date>/", views.day_report, name="day"),
    path("<slug:slug>/trust/", views_trust.trust, name="trust"),
    path("<slug:slug>/trust/account/", views_trust.trust_account, name="trust_account"),
    path("<slug:slug>/trust/deposits/<int:deposit>/bank-slip/", views_trust.bank_slip, name="bank_slip"),
    path("<slug:slug>/trust/bank-slips/<int:bank_slip>/check/", views_trust.bank_slip_check, name="bank_slip_check"),
    path("<slug:slug>/trust/expenses/<int:expense>/cheque/", views_trust.cheque, name="cheque"),
    path("<slug:slug>/trust/purposes/", views_proceeds.purpose, name="purpose"),
    path("<slug:slug>/trust/purposes/<int:purpose>/", views_proceeds.purpose, name="purpose_correct"),
    path("<slug:slug>/trust/disbursements/", views_proceeds.disbursement, name="disbursement"),
    path(
        "<slug:slug>/trust/disbursements/<int:cheque>/",
        views_proceeds.disbursement,
        name="disbursement_correct",
    ),
]
