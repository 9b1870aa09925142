"""/favicon.ico: browsers ask for it on every page; it points at the site's SVG icon."""

from django.http import HttpRequest, HttpResponseRedirect
from django.templatetags.static import static


def favicon(request: HttpRequest) -> HttpResponseRedirect:
    # not permanent: the icon's static name carries a content hash that changes with the file
    return HttpResponseRedirect(static("favicon.svg"))
