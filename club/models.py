"""Clubs, their players and staff, and the players' club ratings."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def secret_digest(secret: str) -> str:
    """What is stored of a secret (an API key, a referee's private link): its SHA-256, so a
    copy of the database opens nothing."""
    return hashlib.sha256(secret.encode()).hexdigest()


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("club:detail", kwargs={"club_slug": self.slug})


class Player(models.Model):
    class Profile(models.TextChoices):
        # Who reads the name in full (club.privacy.shown_name); the others see initials.
        PUBLIC = "public", _("public")
        MEMBERS = "members", _("the club's members")
        HIDDEN = "hidden", _("hidden")

    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80, blank=True)
    # db_default as well: rows written by code that predates the field (an older
    # migration's historical model) still get one.
    profile = models.CharField(
        _("profile"),
        max_length=8,
        choices=Profile.choices,
        default=Profile.PUBLIC,
        db_default=Profile.PUBLIC,
    )
    # Set when this record was merged into another (club.merging): its addresses answer 301
    # to that one, and it holds nothing else any more.
    merged_into = models.ForeignKey(
        "self",
        verbose_name=_("merged into"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # Set when the person's data was erased (club.privacy.erase_member): for good.
    erased_at = models.DateTimeField(_("erased at"), null=True, blank=True)
    # Only referees and directors need to sign in; most players never do.
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    clubs: models.ManyToManyField[Club, Membership] = models.ManyToManyField(
        Club, through="Membership", related_name="players"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.full_name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        # The player's page shows their tournaments, so it is served by tournaments/.
        return reverse("tournaments:player", kwargs={"pk": self.pk})

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class Membership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("member")
        REFEREE = "referee", _("referee")
        DIRECTOR = "director", _("director")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_on = models.DateField(_("joined on"), auto_now_add=True)
    # The club's record of the person (the members page): personal data, read by its
    # directors only, erased on request (club.privacy).
    # db_default as well: rows written by code that predates the fields (an older
    # migration's historical model) still get them.
    email = models.EmailField(_("e-mail"), max_length=254, blank=True, default="", db_default="")
    phone = models.CharField(_("phone"), max_length=40, blank=True, default="", db_default="")
    licence = models.CharField(_("licence"), max_length=40, blank=True, default="", db_default="")
    # An inactive member keeps their history but is no longer offered when names are matched.
    active = models.BooleanField(_("active"), default=True, db_default=True)

    class Meta:
        ordering = ["club", "player"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="membership_once_per_club"),
            models.UniqueConstraint(
                fields=["club", "licence"],
                condition=~models.Q(licence=""),
                name="membership_licence_once_per_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} — {self.club} ({self.get_role_display()})"


class MemberEvent(models.Model):
    """The audit trail of the members page: who added, changed, imported, merged, erased or
    exported whom. An erasure's row names the record by its number only."""

    class Action(models.TextChoices):
        ADDED = "added", _("added")
        EDITED = "edited", _("edited")
        DEACTIVATED = "deactivated", _("deactivated")
        REACTIVATED = "reactivated", _("reactivated")
        IMPORTED = "imported", _("imported")
        MERGED = "merged", _("merged")
        ERASED = "erased", _("erased")
        EXPORTED = "exported", _("exported")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="member_events")
    # A plain number, not a key: the trail outlives what it names, and a merge moves every
    # row that names a player (club.merging), which an audit row must not follow.
    player_id = models.PositiveBigIntegerField(_("player"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("member event")
        verbose_name_plural = _("member events")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()} #{self.player_id}"


class Rating(models.Model):
    """A player's current OpenSkill rating in a club; derived from finished matches."""

    # Rebuilt by a recompute: on a merge, the second record's row that collides with the
    # first's is dropped rather than moved (club.merging).
    derived_per_player = True

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("deviation"))
    # mu − 3·sigma: the conservative number players see.
    rating = models.FloatField(_("rating"), db_index=True)
    matches_played = models.PositiveIntegerField(_("matches played"), default=0)
    matches_won = models.PositiveIntegerField(_("matches won"), default=0)
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        ordering = ["club", "-rating", "player"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="rating_once_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.1f}"


class RatingChange(models.Model):
    """One step of a player's rating history: the rating after one finished match."""

    derived_per_player = True

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    # A plain reference: club/ never imports tournaments/ (docs/architecture.md).
    match_id = models.PositiveBigIntegerField(_("match"))
    played_at = models.DateTimeField(_("played at"))
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("deviation"))
    rating = models.FloatField(_("rating"))
    won = models.BooleanField(_("won"), null=True)

    class Meta:
        ordering = ["club", "player", "played_at", "match_id"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "player", "match_id"], name="rating_change_once_per_match"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} after match {self.match_id}: {self.rating:.1f}"


class YearRanking(models.Model):
    """A player's line in a club's ranking of one calendar year; derived from that year's
    tournaments. Not a season (seasons/ holds those, with their own dates)."""

    derived_per_player = True

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="year_rankings")
    year = models.PositiveSmallIntegerField(_("year"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="year_rankings")
    tournaments_played = models.PositiveIntegerField(_("tournaments played"), default=0)
    matches_played = models.PositiveIntegerField(_("matches played"), default=0)
    matches_won = models.PositiveIntegerField(_("matches won"), default=0)
    average_place = models.FloatField(_("average finishing place"), null=True)
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        ordering = ["club", "-year", "average_place", "player"]
        verbose_name = _("year ranking line")
        verbose_name_plural = _("year ranking lines")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "year", "player"], name="year_ranking_once_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.year}: {self.player}"


class Credential(models.Model):
    """A secret handed out once and kept only as its digest (`secret_digest`): revocable, its
    last use recorded. An API token and a referee's private link are credentials."""

    digest = models.CharField(_("secret (digest)"), max_length=64, unique=True, editable=False)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("issued by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    # Revoked ones are kept (never used again) so the trail of who had access stays.
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None


class ApiToken(Credential):
    """A key to the REST API: a person's own (their rights), or a referee's device's.

    Only the key's SHA-256 is stored; the key itself is shown once, when it is made. A
    token issued by a director carries referee rights in that director's club, and no
    more, whatever roles its holder has or later gains (club.permissions reads the scope).
    """

    class Scope(models.TextChoices):
        # Everything the holder may do, as when they sign in: a person's own token.
        OWN = "own", _("the holder's own rights")
        # Referee rights in `club` only: the token a director gives a referee's device.
        REFEREE = "referee", _("referee rights in one club")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    scope = models.CharField(_("scope"), max_length=10, choices=Scope.choices)
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="api_tokens",
    )
    name = models.CharField(_("name"), max_length=100, blank=True)
    # The key's first characters, so a person can tell their tokens apart.
    prefix = models.CharField(_("prefix"), max_length=16, editable=False)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("revoked by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(scope="own", club__isnull=True)
                | models.Q(scope="referee", club__isnull=False),
                name="api_token_referee_scope_has_a_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user}, {self.get_scope_display()})"
