from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from .health import healthz
from .site_icon import favicon

admin.site.site_header = _("Café turns: organisers")

admin.site.site_title = "Café turns"

# a crash is Django's 500 page; a database that is away for a moment (a restart) a 503 "try again"
handler500 = "config.errors.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz/", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("accounts.urls")),
    path("cardsets/", include("cardsets.urls")),
    # inbound email (replies to game emails) from the ESP: /anymail/<esp>/inbound/
    path("anymail/", include("anymail.urls")),
    path("", include("games.urls")),
]
