"""How much of the text around a found customer name is the name (customer.NAME_FORMS), one rule at a time:
each rule alone on the shapes it settles, and on the look-alikes it must leave as found (SCHEMA.md, customer
rules and "Ambiguities resolved")."""

from __future__ import annotations

import pytest

from sizer_agent.agent.understanding import parse_message
from sizer_agent.agent.understanding.customer import (
    brand_before_parent,
    with_leading_particles,
    with_legal_tail,
    with_title_article,
    without_descriptive_prefix,
)


def at(text: str, name: str) -> tuple[str, int, str]:
    return text, text.index(name), name


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("Plateforme GenOmiX (Université de Montpellier). Nous", "Université de Montpellier", "Plateforme GenOmiX"),
    ("NovaCarto (filiale du Groupe Bessières & Fils) veut", "Groupe Bessières & Fils", "NovaCarto"),
    ("PulseTrack (a Northwind Health company) would like", "Northwind Health", "PulseTrack"),
    ("Orbitry (a University of Kestrel spin-off) wants", "University of Kestrel", "Orbitry"),
    # a person before the bracket: the organisation inside is theirs, and stays the customer
    ("Dr Martin (Clinique du Parc Saint-Jean) a écrit", "Clinique du Parc Saint-Jean", None),
    ("From: Marc Roy (Ciments Durand)", "Ciments Durand", None),
    ("de la part de Solène (Menuiserie Garnier)", "Menuiserie Garnier", None),
    # a place or a department in brackets after a plain name is not a parent
    ("notre startup (Kairn) veut", "Kairn", None),
])
def test_brand_before_parent(text: str, name: str, expected: str | None) -> None:
    settled = brand_before_parent(*at(text, name))
    assert (settled[1] if settled else None) == expected


@pytest.mark.parametrize(("name", "expected"), [
    ("ESN Tech&Sens", "Tech&Sens"), ("Laboratoire NeuroPix", "NeuroPix"), ("Plateforme GenOmiX", "GenOmiX"),
    ("Projet HERMES", "HERMES"),
    ("Centre d'appels Numéricall", "Numéricall"), ("Bureau d'études Thermoplast", "Thermoplast"),
    ("Cabinet d'architectes Moreau Vidal", "Moreau Vidal"),
    ("Cabinet d'expertise comptable Vidal", None),  # fr-050: the kind said in more words is kept as written
    ("Centre Hospitalier de Valence", None),
    # a plain word after the kind is a name that keeps it (fr-k30 "Agence Pixelune", en-p20 "Project Aurora")
    ("Project Aurora", None), ("Laboratoire Jean Kuntzmann", None), ("Groupe Ardent", None),
])
def test_without_descriptive_prefix(name: str, expected: str | None) -> None:
    settled = without_descriptive_prefix(name, 0, name)
    assert (settled[1] if settled else None) == expected


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("Van der Berg Logistics BV – we want", "Berg Logistics BV", "Van der Berg Logistics BV"),
    ("De La Fontaine Conseil voudrait", "Fontaine Conseil", "De La Fontaine Conseil"),
    ("Di Marco Foods wants", "Marco Foods", "Di Marco Foods"),
    ("Le Groupe Ardent souhaite", "Groupe Ardent", None),  # an article, not a particle
    ("pour la société de Berg Logistics", "Berg Logistics", None),  # lowercase "de" is a preposition
])
def test_with_leading_particles(text: str, name: str, expected: str | None) -> None:
    settled = with_leading_particles(*at(text, name))
    assert (settled[1] if settled else None) == expected


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("Good morning. The Evening Ledger would like", "Evening Ledger", "The Evening Ledger"),
    ("Hi, The Daily Courier here.", "Daily Courier", "The Daily Courier"),
    ("The Borough of Eastleigh Council is exploring", "Borough of Eastleigh Council", None),
    ("The Lantern Trust is weighing", "Lantern Trust", None),
    ("The Acme Widgets team wants", "Acme Widgets", None),
    ("Hello from the Wild Eyes Trust!", "Wild Eyes Trust", None),
])
def test_with_title_article(text: str, name: str, expected: str | None) -> None:
    settled = with_title_article(*at(text, name))
    assert (settled[1] if settled else None) == expected


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("Meridian Systems Inc. – serving Llama", "Meridian Systems Inc", "Meridian Systems Inc."),
    ("Callow & Pryce Ltd. – Registered in England", "Callow & Pryce Ltd", "Callow & Pryce Ltd."),
    ("Le cabinet Benhamou, Kessler & Partners voudrait", "Benhamou", "Benhamou, Kessler & Partners"),
    ("Our firm, Ashby, Clarke & Partners, wants", "Ashby", "Ashby, Clarke & Partners"),
    ("la Banque Duval-Mercier & Cie souhaite", "Banque Duval-Mercier", "Banque Duval-Mercier & Cie"),
    # a period that ends the sentence is not the name's; a list of clients is no partnership
    ("Cust : Transports Rivière & Cie.\nwl : chatbot", "Transports Rivière & Cie", None),
    ("We are Acme Inc. We need four GPUs", "Acme Inc", None),
    ("Clients: Acme, Globex and Initech", "Acme", None),
])
def test_with_legal_tail(text: str, name: str, expected: str | None) -> None:
    settled = with_legal_tail(*at(text, name))
    assert (settled[1] if settled else None) == expected


@pytest.mark.parametrize("text", [
    "Cordialement,\nDirection des Systèmes d'Information",
    "Yours faithfully,\nDepartment of Information Technology",
    "Service des Ressources Humaines : un chatbot pour 20 personnes",
])
def test_a_department_signature_names_no_customer(text: str) -> None:
    assert parse_message(text).values.get("customer") is None
