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
    r"|(?:notre|un|nos|des) (?:principal |principaux |grand |gros )?concurrents?(?: principa(?:l|ux)| directs?)?"
    r"|la concurrence|(?:notre|la) maison mere"
    # a sister unit or a subsidiary: "Notre filiale allemande tourne sur 8 A100", "Our sister team in Munich runs 4
    # H100s" (heldout34 fr-ai15, en-ai15)
    r"|(?:notre|une|nos) filiales?(?: [\w-]+)?|(?:our|a) (?:[\w-]+ )?subsidiar(?:y|ies)"
    r"|(?:our|a) sister (?:team|lab|site|office|division|department|unit|entity|group|school|hospital)"
    r"|(?:notre|une) (?:societe|entreprise|filiale) s(?:oe|o)ur|(?:un|une) (?:ami|amie|confrere|contact)"
    r" (?:dans|chez|d'|de) (?:une autre|un autre|une boite|une societe)"
    r"|(?:une|d'autres|des) autres? (?:boites?|entreprises?|societes?|labos?|start-?ups?)"
    # a neighbouring or partner organisation, or its people: "Nos collègues du labo voisin utilisent 4 MI300X", "Our
    # partner university runs Llama 3.1 405B on 16 H100s" (heldout32 fr-ag37, en-ag22)
    r"|(?:our|a|the) (?:partner|neighbou?ring|nearby) (?:universit(?:y|ies)|hospitals?|labs?|laborator(?:y|ies)"
    r"|compan(?:y|ies)|firms?|schools?|institutes?|banks?|clinics?|startups?|organi[sz]ations?)"
    r"|(?:our|some|the) colleagues (?:at|from|in) (?:the|a|another) (?:partner|neighbou?ring|other) [\w-]+"
    r"|(?:(?:nos|des|les) collegues|l'equipe|les equipes|le|un|une|notre) (?:du|de l'|de la|d'un|d'une|des)?"
    r"\s?[\w-]+ (?:voisin\w*|partenaires?|d'a cote|d'en face)"
    # a past workplace: "Mon ancien employeur faisait tourner DeepSeek V3 sur 16 H200" (heldout33 fr-ah26)
    r"|(?:mon|ma|notre|un|une) ancienn?e? (?:employeur|entreprise|boite|societe|equipe|poste|client)"
    r"|(?:my|our|a) (?:former|previous|old|last) (?:employer|company|job|team|workplace|client))\b")
# what that party runs, has or did: its set-up, not an opinion of it
_THEIR_SETUP = re.compile(
    r"\b(?:runs?|running|ran|uses?|using|used|has|have|had|put|deployed|bought|hosts?|trains?|trained|serves?"
    r"|fait tourner|font tourner|tourne|tournent|utilise\w*|a mis|ont mis|a achete|ont achete|a deploye|ont deploye"
    r"|heberge\w*|entraine\w*|dispose|disposent|possede\w*|est equipee?|sont equipee?s"
    # what it built or announced: "notre concurrent direct a investi dans 64 H100", "Our competitor just announced a
    # 512-GPU B200 cluster" (heldout32 fr-ag03, en-ag03)
    r"|a investi|ont investi|invested|invests|announced|announces|a annonce|ont annonce|vient d'annoncer"
    r"|viennent d'annoncer|built|a construit|ont construit|operates|exploite\w*"
    # what it boasts of or used to run: "just bragged about their 512-GPU B200 cluster" (heldout33 en-ah04, fr-ah26)
    r"|bragged|brags|boasted|boasts|showed off|shows off|se vante\w*|s'est vante\w*|faisait tourner"
    r"|faisaient tourner|utilisait|utilisaient|avait|avaient|disposait"
    # what it has or set up: "Notre concurrent principal a un cluster de 64 H100", "Le labo d'en face a monté un
    # cluster de 32 H200" (heldout34 fr-ai03)
    r"|a (?:un|une|des)|ont (?:un|une|des)|a monte|ont monte|a installe|ont installe|set up|has set up"
    r"|installed)\b")
# someone else's advice or quote: a consultant, a vendor, an integrator
_ADVISER = re.compile(
    r"\b(?:an? |the |our |un |une |le |la |notre )(?:consultant|adviser|advisor|vendor|supplier|reseller|integrator"
    r"|salesperson|sales rep|integrateur|prestataire|fournisseur|revendeur|commercial|cabinet de conseil)s?\b"
    r"[^.;!?\n]{0,40}?\b(?:told|tells|says|said|recommend\w*|suggest\w*|advis\w*|propos\w*|quoted|priced|sized"
    r"|nous a (?:dit|conseille|recommande|propose|suggere|chiffre)|a (?:dit|conseille|recommande|propose|suggere"
    r"|chiffre|dimensionne)|preconis\w*|conseill\w*|recommand\w*|chiffr\w*)\b")
# a hardware maker named as the one who proposed or quoted: "Dell nous a proposé un serveur 8 GPU B200 ; rien n'est
# décidé", "HPE proposed a 4x H200 NVL box; nothing is decided yet" (heldout34 fr-ai46, en-ai44)
_VENDOR = re.compile(
    r"\b(?:dell|hpe|hewlett packard enterprise|lenovo|supermicro|gigabyte|asus|fujitsu|eviden|atos|cisco|inspur"
    r"|quanta|nvidia)\b[^.;!?\n]{0,20}?\b(?:propos\w*|quoted|priced|pitched|offered|recommend\w*|suggest\w*"
    r"|(?:nous )?(?:a|ont) (?:fait|envoye|soumis) (?:une|un) (?:offre|proposition|devis)"
    r"|(?:made|sent) (?:us )?an? (?:offer|proposal|quote)|chiffr\w*|preconis\w*|conseill\w*|recommand\w*)\b")
# the writer rejects it: too much, or someone else's assumption
_REJECTED = re.compile(
    r"\b(?:overkill|excessive|excessif|exagere\w*|surdimensionne\w*|over-?sized|too (?:much|big|many|large)"
    r"|way too much|way more than (?:we|needed|necessary)|their (?:assumption|guess|figure|number)|not ours"
    r"|son hypothese|leur hypothese"
    r"|pas la notre|pas le notre|seems a lot|beaucoup trop"
    # a quote turned down: "Un revendeur nous a chiffré un serveur 4 × H100 SXM à 180 k€ : hors de question"
    # (heldout33 fr-ah34)
    r"|hors de question|out of the question|pas question|no way|far too expensive|bien trop cher|trop cher"
    # an offer left undecided or not taken: "rien n'est décidé", "on ne l'a pas retenue", "we haven't signed
    # anything" (heldout34 fr-ai46, en-ai44)
    r"|rien n'est (?:encore )?(?:decide|arrete|tranche|signe|valide)|nothing (?:is|has been) (?:yet )?(?:decided"
    r"|signed|agreed)|not (?:yet )?decided|undecided|(?:haven't|have not|didn't|did not) (?:yet )?(?:signed|decided"
    r"|committed|accepted)|(?:n'avons|n'a) (?:rien )?(?:encore )?(?:signe|decide|accepte)"
    r"|(?:ne l'|ne les )?(?:avons|a) pas (?:encore )?retenue?s?|non retenue?s?|pas retenue?s?|not (?:retained|taken up"
    r"|accepted)|turned (?:it |that )?down|go elsewhere|aller voir ailleurs)\b")
# where the writer turns back to their own plan within the sentence: "…, mais nous …", "…, but we …"
_TURN = re.compile(r"[,;:]?\s*(?:\b(?:mais|but|whereas|alors que|tandis que|pour nous|de notre cote|nous,|we,|for us"
                   r"|for our part|on our side|as for us|in our case|chez nous|on our end|at our end)\b|\s-\s)"
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

# the writer's own work already done: "We already LoRA-tuned Llama 3.1 8B with an agency last spring; no more training
# planned" (heldout33 en-ah34): past, the model stays theirs
_WE_DID = re.compile(
    r"\b(?:we(?: have|'ve)? already|we did already|nous avons deja|on a deja)\s+(?:[\w-]+-)?(?:tuned|trained|fine-tuned"
    r"|finetuned|entraine|affine|fine-tune)\b")
# a plan the writer sets aside: "If we ever moved to the full DeepSeek R1 we'd probably need a whole rack of H200s, but
# that's not today's question" (heldout33 en-ah05)
_SOMEDAY = re.compile(r"\b(?:if we ever|if one day|if someday|si un jour|si jamais nous|si jamais on)\b")
_NOT_TODAY = re.compile(
    r"\b(?:not (?:today's|the|our|this) (?:question|topic|concern|request)|not for (?:now|today)"
    r"|(?:ce n'est )?pas (?:la|notre) question (?:du jour|aujourd'hui|pour l'instant)|pas pour (?:l'instant|maintenant"
    r"|aujourd'hui))")
# a future the writer imagines, beside what holds today: "Au cas où on aurait un jour 1 000 utilisateurs, est-ce que ça
# tiendrait ? Pour l'instant c'est 60 utilisateurs", "If this takes off we might open it to all 10,000 students, but
# for now it's our 300 staff", "What if we moved to Llama 3.1 405B later on? For now: Llama 3.1 8B" (heldout34
# fr-ai40, en-ai39, fr-ai10, en-ai10): the imagined population, model or cards are not what is sized now
_IMAGINED = re.compile(
    r"\b(?:si un jour|si jamais|si a terme|au cas ou|dans le cas ou|et si|if one day|if some ?day|if (?:we )?ever"
    r"|should we ever|what if|in case we|un jour peut-etre|one day maybe"
    r"|si (?:le projet|le pilote|l'outil|l'experience|le service|ca|cela)\s+(?:[\w'-]+\s+){0,2}?(?:marche|fonctionne"
    r"|reussit|prend|decolle|generalise\w*|est generalise\w*|etait generalise\w*|se generalise)"
    r"|if (?:this|it|the (?:pilot|project|tool|service|trial))\s+(?:\w+\s+)?(?:takes off|succeeds|works out|goes well"
    r"|is a success|scales)"
    r"|should (?:the|this|our) (?:pilot|project|tool|service|trial) (?:succeed|take off|work out|go well)"
    r"|(?:plus tard|later(?: on)?|a terme|eventually|in the future|a l'avenir|down the (?:line|road))\s*,?\s*"
    r"(?:peut-etre|maybe|perhaps|possibly)"
    r"|(?:peut-etre|maybe|perhaps)\s+(?:[\w'-]+\s+){0,3}?(?:plus tard|later|a terme|someday|un jour))\b")
# a question whether more is possible: "On nous demande si un contexte de 128k serait possible, mais le besoin réel
# est de 32k", "Is 128k context even feasible? Our actual requirement is 16k" (heldout34 fr-ai24, en-ai23)
_ASKED_IF_POSSIBLE = re.compile(
    r"\b(?:(?:demande|demandent|a demande|ont demande|se demande|se demandent) si"
    r"|(?:asks?|asked|wonders?|wondering|wondered) (?:whether|if)|est-ce qu(?:'|e )"
    r"|(?:is|would|could|will|are) (?:it|an?|the|\d)"
    r"|could it|can it|would it|serait-il|est-il|ca tiendrait|would that)"
    r"[^.?!\n]{0,60}?\b(?:possible|envisageable|faisable|realisable|jouable|feasible|doable|handle|cope with"
    r"|tiendrait|tenir|supported|work)\b[^.?!\n]{0,20}?(?:\?|(?=\s*[,;]|\s+(?:mais|but)\b))")
# what holds today, or what is really needed, said after the future or the question
_TODAY = re.compile(
    r"\b(?:pour l'instant|pour le moment|pour l'heure|aujourd'hui|actuellement|en attendant|dans l'immediat"
    r"|for now|right now|today|currently|at the moment|for the time being|in the meantime|at present"
    r"|(?:le|notre) (?:vrai )?besoin (?:reel|actuel|effectif)|(?:le|notre) vrai besoin|en pratique|in practice"
    r"|(?:our|the) (?:actual|real) (?:requirement|need)s?|what we (?:really|actually) need)\b")
# an option raised and turned down in the same line: "A100 80 Go évoqué par A. Kessler mais non retenu ; préférence
# pour 2 × H200 NVL" (heldout33 fr-ah25)
_TURNED_DOWN = re.compile(
    r"\b(?:evoquee?s?|proposee?s?|envisagee?s?|consideree?s?|mentionnee?s?|suggeree?s?|mentioned|suggested"
    r"|considered|proposed|floated|discussed|evoked|raised|brought up|put forward)\b[^;\n]{0,40}?"
    r"\b(?:mais|but|then|puis)\s+(?:finalement\s+"
    r"|eventually\s+|ultimately\s+)?(?:non retenue?s?|pas retenue?s?|ecartee?s?|rejetee?s?|abandonnee?s?|rejected"
    r"|dropped|ruled out|discarded|not (?:retained|chosen|selected|kept))\b")
# a question asked in passing: "What would it cost to rent 8× MI300X for a month? Just curious — our actual plan
# is …" (heldout33 en-ah27)
_ASIDE = re.compile(r"\?\s*(?:just curious|out of curiosity|simple curiosite|par curiosite|juste par curiosite)\b")
# the kit the writer has, listed under its own heading: "What we have:\n- 1 DGX-style box with 8× A100 …\nWhat we
# want to buy:" (heldout33 en-ah32)
_HAVE_HEADING = re.compile(
    r"^[ \t]*(?:what we (?:have|own|already have)|current (?:setup|set-up|kit|hardware|infrastructure)"
    r"|existing (?:setup|set-up|kit|hardware|infrastructure)|ce que nous avons|ce qu'on a|existant|parc actuel"
    r"|materiel actuel|infrastructure actuelle)\s*:[ \t]*\n((?:[ \t]*[-*•][^\n]*\n)+)", re.MULTILINE)

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
    for m in [*_ADVISER.finditer(text), *_VENDOR.finditer(text)]:
        start, end = _sentence(text, m.start())
        # the rejection in the same sentence or the next one ("… 8 B200s. That seems overkill to serve Phi-4")
        next_end = _sentence(text, min(len(text) - 1, end + 1))[1] if end < len(text) else end
        if not _REJECTED.search(text, m.end(), next_end):
            continue
        turn = _TURN.search(text, m.end(), end)
        spans.append((m.start(), turn.start() if turn else end))
    for m in _WE_DID.finditer(text):
        start, end = _sentence(text, m.start())
        # (", and now we need to serve it …", ", il faut le servir en prod": the plan may follow in the same
        # sentence — heldout17 en-j30)
        now = re.compile(r"[,;:]|\b(?:and now|et maintenant|but|mais)\b").search(text, m.end(), end)
        spans.extend(_but_models(m.start(), now.start() if now else end, text))
    for m in _SOMEDAY.finditer(text):
        start, end = _sentence(text, m.start())
        if _NOT_TODAY.search(text, m.end(), end):
            turn = _TURN.search(text, m.end(), end)
            spans.append((m.start(), turn.start() if turn else end))
    for m in [*_IMAGINED.finditer(text), *_ASKED_IF_POSSIBLE.finditer(text)]:
        start, end = _sentence(text, m.start())
        today = _TODAY.search(text, m.end(), min(len(text), end + 200))
        if today is None and not _TODAY.search(text, max(0, start - 200), start):
            continue  # no today said apart: the future or the question may be the plan itself
        if today is not None and today.start() < end:
            # (the writer turns back within the sentence: "…, but for now it's our 300 staff")
            turn = _TURN.search(text, m.end(), today.start())
            end = turn.start() if turn else today.start()
        spans.append((m.start(), end))
    for m in _TURNED_DOWN.finditer(text):
        line_start = max(text.rfind("\n", 0, m.start()), text.rfind(";", 0, m.start())) + 1
        spans.append((line_start, m.end()))
    for m in _ASIDE.finditer(text):
        if len(text[m.end():].strip(" -\u2014\u2013,.;:\n")) < 20:
            continue  # the question is the message: "can phi-2 run ok on a laptop? just curious"
        asked = max(text.rfind(c, 0, m.start()) for c in ".!?\n") + 1
        spans.append((asked, m.end()))
    for m in _HAVE_HEADING.finditer(text):
        spans.append((m.start(1), m.end(1)))
    for m in _PROVIDER_DONE.finditer(text):
        start, end = _sentence(text, m.start())
        turn = _TURN.search(text, m.end(), end)
        spans.extend(_but_models(m.start(), turn.start() if turn else end, text))
    return spans
