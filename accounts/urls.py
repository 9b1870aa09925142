from django.urls import path

from . import languages, views

urlpatterns = [
    path("sign-in/", views.sign_in, name="sign-in"),
    path("sign-in/link/", views.sign_in_link, name="sign-in-link"),
    path("sign-out/", views.sign_out, name="sign-out"),
    path("me/mail-works/", views.mail_works, name="mail-works"),
    path("language/", languages.choose, name="language"),
]
