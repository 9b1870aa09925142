from django.urls import path

from . import views

app_name = "cardsets"

urlpatterns = [
    path("", views.cardset_list, name="list"),
    path("upload/", views.upload, name="upload"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/check/", views.run_check, name="check"),
    path("<int:pk>/preview/", views.preview, name="preview"),
    path("<int:pk>/export.zip", views.export, name="export"),
]
