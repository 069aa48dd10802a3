"""Importing the club's list from a spreadsheet (.csv or .xlsx): the columns found by their
header (English, Dutch, French, Finnish), a preview of each row (`new`, `same`, `similar`,
`invalid`), and the import itself once the director confirms, which creates only the new.

Rows are matched to members as pasted names are (club.registration): exactly the same name
(case and spacing aside) or the same licence is `same`, a close name is `similar`.
"""

from __future__ import annotations

import csv
import io
import unicodedata
import zipfile
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from .errors import ServiceError
from .members import member_problems, record, require_member_reader
from .models import Club, MemberEvent, Membership, Player
from .registration import Roster, folded_names, similar_members, split_name

MAX_IMPORT_BYTES = 5 * 1024 * 1024
MAX_IMPORT_ROWS = 5000

NEW, SAME, SIMILAR, INVALID = "new", "same", "similar", "invalid"

# Headers as spreadsheets name them, folded (lower case, no accents, letters and digits only).
HEADERS = {
    "first_name": {
        "firstname",
        "first",
        "givenname",
        "forename",
        "voornaam",
        "roepnaam",
        "prenom",
        "etunimi",
        "etunimet",
    },
    "last_name": {
        "lastname",
        "last",
        "surname",
        "familyname",
        "achternaam",
        "familienaam",
        "nom",
        "nomdefamille",
        "sukunimi",
    },
    "name": {"name", "fullname", "naam", "volledigenaam", "nomcomplet", "nimi", "kokonimi"},
    "email": {
        "email",
        "emailaddress",
        "mail",
        "emailadres",
        "courriel",
        "adresseemail",
        "adressemail",
        "sahkoposti",
        "sahkopostiosoite",
    },
    "phone": {
        "phone",
        "telephone",
        "tel",
        "mobile",
        "phonenumber",
        "telefoon",
        "telefoonnummer",
        "gsm",
        "mobiel",
        "portable",
        "numerodetelephone",
        "puhelin",
        "puhelinnumero",
        "matkapuhelin",
    },
    "licence": {
        "licence",
        "license",
        "licencenumber",
        "licensenumber",
        "licentie",
        "licentienummer",
        "bondsnummer",
        "numerodelicence",
        "lisenssi",
        "lisenssinumero",
    },
}


COLUMN_LABELS = {
    "first_name": _l("First name"),
    "last_name": _l("Last name"),
    "email": _l("E-mail"),
    "phone": _l("Phone"),
    "licence": _l("Licence"),
}


class ImportRefused(ServiceError):
    """The file cannot be read as a members list (400, naming the problem)."""

    code = "invalid_file"

    def __init__(self, message: str) -> None:
        super().__init__(message, field="file")


@dataclass
class ImportRow:
    """A row of the file and what importing it would do."""

    line: int
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    phone: str = ""
    licence: str = ""
    status: str = NEW
    member: int | None = None  # the member it is (`same`) or is close to (`similar`)
    member_name: str = ""
    errors: dict[str, list[str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def error_lines(self) -> list[str]:
        """Each problem after the column it is in ("E-mail: … is not an e-mail address")."""
        return [
            f"{COLUMN_LABELS.get(column, column)}: {message}"
            for column, messages in self.errors.items()
            for message in messages
        ]


def _folded_header(text: Any) -> str:
    decomposed = unicodedata.normalize("NFKD", str(text or "").casefold())
    return "".join(c for c in decomposed if c.isalnum() and not unicodedata.combining(c))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # a licence number a spreadsheet stored as 12345.0
    return " ".join(str(value).split())


def _decoded(data: bytes) -> str:
    """UTF-8 (with or without its BOM) as most spreadsheets write it, else Windows-1252 (an
    older Excel's CSV)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _csv_rows(data: bytes) -> list[list[str]]:
    text = _decoded(data)
    if "\x00" in text:
        raise ImportRefused(_("This file is not a CSV text file; save it as .csv or .xlsx."))
    sample = text[:4096]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        first_line = sample.splitlines()[0] if sample else ""
        dialect = csv.excel
        if first_line.count(";") > first_line.count(","):
            dialect = type("semicolon", (csv.excel,), {"delimiter": ";"})
    try:
        return [row for row in csv.reader(io.StringIO(text), dialect)]
    except csv.Error as error:
        raise ImportRefused(
            _("This CSV file cannot be read: %(error)s.") % {"error": error}
        ) from None


def _xlsx_rows(data: bytes) -> list[list[str]]:
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, TypeError):
        raise ImportRefused(
            _("This .xlsx file cannot be read; save it again from the spreadsheet.")
        ) from None
    try:
        sheet = book.worksheets[0]
        rows = []
        for values in sheet.iter_rows(values_only=True):
            rows.append([_cell(value) for value in values])
            if len(rows) > MAX_IMPORT_ROWS + 1:
                break
        return rows
    finally:
        book.close()


def read_rows(data: bytes, filename: str = "") -> list[list[str]]:
    """The file's cells, row by row: an .xlsx workbook's first sheet, or a CSV file."""
    if not data:
        raise ImportRefused(_("The file is empty."))
    if len(data) > MAX_IMPORT_BYTES:
        raise ImportRefused(
            _("The file is larger than %(size)d MB.") % {"size": MAX_IMPORT_BYTES // 1024 // 1024}
        )
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise ImportRefused(_("An old Excel file (.xls): save it as .xlsx or .csv."))
    if data.startswith(b"PK\x03\x04") or filename.lower().endswith(".xlsx"):
        return _xlsx_rows(data)
    return _csv_rows(data)


def columns(header: list[str]) -> dict[str, int]:
    """Which column holds which field, from the header row."""
    found: dict[str, int] = {}
    for index, title in enumerate(header):
        folded = _folded_header(title)
        for name, titles in HEADERS.items():
            if folded in titles and name not in found:
                found[name] = index
    return found


def parse(data: bytes, filename: str = "") -> list[ImportRow]:
    """The rows of the file with their fields (not matched yet); ImportRefused naming the
    problem when the file is not a members list."""
    rows = read_rows(data, filename)
    while rows and not any(rows[0]):
        rows.pop(0)
    if not rows:
        raise ImportRefused(_("The file is empty."))
    found = columns(rows[0])
    if "name" not in found and "first_name" not in found:
        raise ImportRefused(
            _(
                "No column of names: the first row must name the columns (first name, last "
                "name or name; e-mail, phone, licence)."
            )
        )
    body = rows[1:]
    if len(body) > MAX_IMPORT_ROWS:
        raise ImportRefused(
            _("%(count)d rows: import at most %(max)d at a time.")
            % {"count": len(body), "max": MAX_IMPORT_ROWS}
        )
    parsed = []
    for offset, cells in enumerate(body, start=2):
        if not any(c.strip() for c in cells):
            continue

        def value(name: str, cells: list[str] = cells) -> str:
            index = found.get(name)
            return _cell(cells[index]) if index is not None and index < len(cells) else ""

        row = ImportRow(line=offset)
        if "first_name" in found:
            row.first_name, row.last_name = value("first_name"), value("last_name")
        else:
            row.first_name, row.last_name = split_name(value("name"))
        row.email, row.phone, row.licence = value("email"), value("phone"), value("licence")
        parsed.append(row)
    return parsed


def preview(club: Club, rows: list[ImportRow]) -> list[ImportRow]:
    """What importing each row would do: `invalid` (its errors by column), `same` (the
    member with that licence or exactly that name, or a row above), `similar` (a member
    close to the name), else `new`. Reads the club's members once."""
    roster = Roster(club)
    active = roster.members()
    active_names = folded_names(active)  # once, not once a row
    by_licence = {
        m.licence: m.player
        for m in Membership.objects.filter(club=club).exclude(licence="").select_related("player")
    }
    seen_names: dict[tuple[str, str], int] = {}
    seen_licences: dict[str, int] = {}
    for row in rows:
        fields = {
            "first_name": row.first_name,
            "last_name": row.last_name,
            "email": row.email,
            "phone": row.phone,
            "licence": row.licence,
        }
        # A licence already held is not a mistake here: it says which member the row is.
        row.errors = member_problems(club, fields, check_taken=False)
        if row.errors:
            row.status = INVALID
            continue
        key = (row.first_name.casefold(), row.last_name.casefold())
        member = by_licence.get(row.licence) if row.licence else None
        if member is None:
            named = roster.named(row.name)
            member = named[0] if named else None
        if member is not None:
            row.status, row.member, row.member_name = SAME, member.pk, member.full_name
        elif key in seen_names or (row.licence and row.licence in seen_licences):
            row.status = SAME
            row.member_name = _("line %(line)d") % {
                "line": seen_names.get(key) or seen_licences.get(row.licence)
            }
        elif close := similar_members(active, row.name, folded=active_names):
            row.status, row.member, row.member_name = SIMILAR, close[0].pk, close[0].full_name
        else:
            row.status = NEW
        seen_names.setdefault(key, row.line)
        if row.licence:
            seen_licences.setdefault(row.licence, row.line)
    return rows


def summary(rows: list[ImportRow]) -> dict[str, int]:
    counts = {NEW: 0, SAME: 0, SIMILAR: 0, INVALID: 0}
    for row in rows:
        counts[row.status] += 1
    return counts


def rows_as_data(rows: list[ImportRow]) -> list[dict[str, Any]]:
    return [asdict(row) for row in rows]


def rows_from_data(data: list[dict[str, Any]]) -> list[ImportRow]:
    return [ImportRow(**row) for row in data]


def import_members(
    club: Club, rows: list[ImportRow], *, by: Any, add_similar: frozenset[int] = frozenset()
) -> dict[str, int]:
    """Store the previewed rows: the `new` ones become members, and the `similar` ones whose
    lines the director chose (`add_similar`); a `same` one completes the member's empty
    e-mail, phone or licence. Previewed again inside the transaction, so a file imported
    twice (or a member added meanwhile) creates nothing more."""
    require_member_reader(by, club)
    created = completed = 0
    with transaction.atomic():
        # One import of a club at a time: the second waits, then finds the first's members.
        list(Club.objects.select_for_update().filter(pk=club.pk))
        rows = preview(club, rows)
        new = [
            r for r in rows if r.status == NEW or (r.status == SIMILAR and r.line in add_similar)
        ]
        players = Player.objects.bulk_create(
            Player(first_name=r.first_name, last_name=r.last_name) for r in new
        )
        Membership.objects.bulk_create(
            Membership(club=club, player=p, email=r.email, phone=r.phone, licence=r.licence)
            for p, r in zip(players, new, strict=True)
        )
        created = len(players)
        same = {r.member: r for r in rows if r.status == SAME and r.member}
        changed = []
        for membership in Membership.objects.filter(club=club, player_id__in=list(same)):
            row = same[membership.player_id]
            fill = {
                f: getattr(row, f)
                for f in ("email", "phone", "licence")
                if not getattr(membership, f) and getattr(row, f)
            }
            if fill:
                for name, value in fill.items():
                    setattr(membership, name, value)
                changed.append(membership)
        Membership.objects.bulk_update(changed, ["email", "phone", "licence"])
        completed = len(changed)
        counts = {**summary(rows), "created": created, "completed": completed}
        record(club, None, MemberEvent.Action.IMPORTED, by, **counts)
    return counts
