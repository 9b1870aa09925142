"""People, known by email address. Organisers have a password; players never need one."""

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.core.validators import MaxValueValidator
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext_lazy as _


def new_calendar_nonce() -> str:
    return secrets.token_urlsafe(12)


class UserManager(BaseUserManager):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **extra):
        if not email:
            raise ValueError(_("An email address is required."))

        user = self.model(email=self.normalize_email(email).lower(), **extra)
        if password:
            user.set_password(password)
        else:
            user.set_unusable_password()
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **extra):
        extra.update(is_staff=True, is_superuser=True)
        return self.create_user(email, password, **extra)

    def for_email(self, email: str, name: str = ""):
        """The person with this address, created (with no usable password) on first invitation or sign-in."""
        address = self.normalize_email(email).lower()
        found = self.filter(email=address).first()
        if found is not None:
            return found
        try:
            with transaction.atomic():
                return self.create_user(address, name=name)
        except IntegrityError:  # created by another request at the same moment
            return self.get(email=address)


class User(AbstractBaseUser, PermissionsMixin):
    email = models.EmailField(unique=True)
    name = models.CharField(max_length=80, blank=True)
    timezone = models.CharField(max_length=64, default="UTC", help_text=_("Deadlines are shown in this timezone."))

    class EmailMode(models.TextChoices):
        EACH = "each", _("An email for each decision")
        DIGEST = "digest", _("One daily digest of the games waiting on me")

    email_mode = models.CharField(max_length=10, choices=EmailMode.choices, default=EmailMode.EACH)
    digest_hour = models.PositiveSmallIntegerField(
        default=8, validators=[MaxValueValidator(23)], help_text=_("Local hour the daily digest is sent.")
    )
    # the clock on the player's terms (read by games.clock.terms; blank: the game's reminder, no quiet hours)
    quiet_hours = models.CharField(
        max_length=11,
        blank=True,
        default="",
        help_text=_("No deadline of yours falls in these hours, e.g. 23:00-07:00."),
    )
    reminder_points = models.CharField(
        max_length=60, blank=True, default="", help_text=_("When to remind you before a deadline, e.g. 24h, 4h, 1h.")
    )
    unsubscribed = models.BooleanField(default=False, help_text=_("No game email at all; their games go on."))
    # a mail server refused this address for good (accounts.bounces): game mail is held until it is cleared
    mail_refused_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When mail to this address was refused for good; clear it to mail it again.")
    )
    mail_refused_reason = models.CharField(max_length=300, blank=True, help_text=_("What the mail server said."))
    last_digest_at = models.DateTimeField(null=True, blank=True, editable=False)
    # the private calendar feed's address is signed with it (accounts.tokens): a new one revokes the old address
    calendar_nonce = models.CharField(max_length=32, default=new_calendar_nonce, editable=False)
    is_staff = models.BooleanField(default=False, help_text=_("Organisers: may sign in and run games."))
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(auto_now_add=True)
    # the language everything is said in, pages, mail and pings alike (accounts.languages); blank: not
    # chosen yet, and the browser's language is taken at the next visit
    language = models.CharField(
        _("language"),
        max_length=8,
        blank=True,
        default="",
        choices=settings.LANGUAGES,
        help_text=_("Pages, mail and notifications are in it; blank: your browser's."),
    )

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        return self.name or self.email.split("@")[0]
