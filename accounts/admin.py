from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    ordering = ("email",)
    list_display = ("email", "name", "is_staff", "timezone", "mail_refused_at")
    list_filter = ("is_staff", ("mail_refused_at", admin.EmptyFieldListFilter))
    search_fields = ("email", "name")
    fieldsets = (
        (None, {"fields": ("email", "name", "timezone", "password")}),
        (_("Mail refused"), {"fields": ("mail_refused_at", "mail_refused_reason")}),
        (_("Permissions"), {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "name", "password1", "password2")}),)
