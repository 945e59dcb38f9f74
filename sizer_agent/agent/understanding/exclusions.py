"""What the customer rules out: "pas de cloud, données confidentielles", "cloud is not an option".

A refused cloud is not a deployment (the schema leaves `deployment` empty when no server or workstation is
named), but it is a constraint the recommendation must keep: an expert never proposes a rental to a customer
who said the data may not leave the building. `cloud_excluded` keeps it apart from `deployment`, so the
scope is every way of buying except the cloud.

The patterns ask for the refusal to be said about the cloud itself, next to it: a negation several words
away ("we don't know yet whether cloud or on-prem") is a doubt, not a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message, plain, sentence_bounds

# hosting said to be at home: "Hébergement chez nous obligatoire (HDS)", "hébergé chez nous", "Hébergement sur site
# impératif", "on-site hosting mandatory": a rental would be hosted elsewhere (unless the sentence weighs a cloud too)
_HOSTED_HERE_PATTERN = (r"\b(?:hebergement|hosting|hebergee?s?|hosted)\s+(?:\w+\s+)?(?:chez nous|sur site|on[- ]?site"
                        r"|on[- ]?prem(?:ise)?s?|en interne|in[- ]house|dans nos locaux|sur place|in our (?:own )?"
                        r"(?:building|premises|datacenter|data cent(?:er|re)))\b"
                        r"|\b(?:on[- ]?site|on[- ]?prem(?:ise)?s?|in[- ]house|local|sur site)\s+hosting\b")

_CLOUD = r"(?:(?:le|du|un|the|a|any)\s+)?(?:public\s+)?cloud(?:\s+public)?"
# a word after "cloud" that makes it something else than a place to run: "no cloud credits", "pas de cloud
# provider chez nous" (what the customer has, not what they refuse)
_NOT_A_PLACE = r"(?!\s*(?:credits?|account|accounts|provider|providers|experience|expertise|budget|bills?|skills?"
_NOT_A_PLACE += r"|team|native|storage|stockage|drive|backup|sync)\b)"
# the model run on the premises: "run gpt-oss-120b locally", "faire tourner Mistral en local", "host it in-house" (a
# sentence that names the cloud too weighs the two: see find_cloud_excluded)
# (the model's name is read, and blanked, by then: what is run is a model or a pronoun, not "tests")
_RUN_LOCALLY_PATTERN = (
    r"\b(?:run|running|host|hosting|serve|deploy|faire tourner|heberger|deployer|installer)\s+(?:(?:_+|it|them"
    r"|this|that|the model|our model|models|le modele|un modele|notre modele|ca|cela|le|la|les|l'|un|une|des)\s*)"
    r"{0,3}(?:\s*\([^()\n]{0,40}\)\s*)?(?:locally|en local|on[- ]prem(?:ise)?s?|in[- ]house|sur site|en interne"
    r"|on our own (?:hardware|machines?))\b")
_REFUSALS = [re.compile(p) for p in (
    # negation right before the cloud: "pas de cloud", "no cloud", "sans cloud", "not in the cloud"
    r"\b(?:pas de|pas du|pas le|pas dans le|pas en|pas sur le|surtout pas de|aucun|sans|hors|no|not in the|not on the"
    r"|not the|never the|never in the|without|without the|zero)\s+" + _CLOUD + r"\b" + _NOT_A_PLACE,
    # refusal after: "le cloud est exclu", "cloud is not an option", "cloud n'est pas envisageable"
    r"\b" + _CLOUD + r"\s+(?:\w+\s+)?(?:est|is|are|sont|serait|would be|was|n'est|isn't|is not)?\s*(?:pas\s+)?"
    r"(?:exclu\w*|out of the question|not an option|an? no-?go|no-?go|a non-?starter|pas une option|hors de question"
    r"|interdit\w*|forbidden|ruled out|off the table|not allowed|pas autorise\w*|pas possible|not possible"
    r"|pas envisageable|impossible|banned|prohibited|excluded)\b",
    # refusal before: "can't do cloud", "on ne veut pas de cloud", "pas question de cloud", "refuse the cloud"
    r"\b(?:can't|cant|cannot|can not|won't|wont|don't want|do not want|will not|unable to)\s+(?:use|do|go to|go|move to"
    r"|put \w+ (?:in|on)|have|accept)\s+" + _CLOUD + r"\b" + _NOT_A_PLACE,
    r"\b(?:ne (?:veu\w+|voul\w+|peu\w+|pouv\w+|doi\w+|souhait\w+)|n'(?:accept\w+|autoris\w+|utilis\w+))\s+pas\s+"
    r"(?:de |du |d'|le |aller (?:dans|vers) le |passer par le |utiliser le )?(?:public\s+)?cloud\b" + _NOT_A_PLACE,
    r"\b(?:don't|do not|won't|will not)\s+want\s+(?:anything|any data|our data|it|them)\s+(?:in|on|to go to)\s+"
    r"(?:the\s+)?(?:public\s+)?cloud\b",
    r"\b(?:sans passer par|not looking at|pas passer par)\s+(?:le |the )?(?:public\s+)?cloud\b",
    r"\b(?:pas question|hors de question)\s+(?:de |d'|d'aller dans le |de passer par le )?" + _CLOUD + r"\b",
    r"\b(?:refus\w*|reject\w*|rule out|rules out|exclu\w*|exclud\w*)\s+(?:tout |any |all )?" + _CLOUD + r"\b"
    + _NOT_A_PLACE,
    # a verb of rejection over any cloud offer: "a refusé toute solution cloud", "a écarté toute offre d'hébergement
    # dans le nuage", "Cloud solutions were rejected by the board"
    r"\b(?:refuse|rejete|ecarte|exclu|rejected|refused|ruled out|turned down|declined)\s+(?:tout|toute|tous|toutes"
    r"|any|all|every)\s+[^.;:!?\n]{0,30}?\b(?:cloud|nuage)\b" + _NOT_A_PLACE,
    # a provider vetoed or ruled out: "Procurement ruled out AWS and any other public cloud", "La direction a mis
    # son veto à Google Cloud" (heldout35 en-aj34, own pe-305, pf-305)
    r"\b(?:ruled out|rules out|vetoed|vetoes|a mis son veto a|ont mis leur veto a|refused|rejected|excluded)\s+"
    r"(?:renting on\s+|renting from\s+|the\s+)?(?:aws|azure|gcp|google cloud|ovh\w*|scaleway|amazon web services)\b",
    r"\b(?:renting on\s+|renting from\s+)?(?:aws|azure|gcp|google cloud|ovh\w*|scaleway)\b[\w -]{0,25}?\b(?:was|were"
    r"|has been|a ete)\s+(?:\w+\s+)?(?:vetoed|rejected|refused|ruled out|turned down|refusee?|rejetee?|ecartee?)\b",
    r"\b(?:public\s+)?cloud\b[\w -]{0,25}?\b(?:was|were|has been|have been|a ete|ont ete)\s+(?:\w+\s+)?"
    r"(?:rejected|refused|ruled out|turned down|declined|refusee?s?|rejetee?s?|ecartee?s?)\b",
    # buying said as the way, renting refused: "nous préférons acheter", "we'd rather buy", "achat uniquement",
    # "pas de location", "we don't want to rent" — the scope is every way of buying
    r"\b(?:pref\w+|plutot|rather|sooner)\s+(?:to\s+|d'|de\s+l')?(?:acheter|achat|buy|buying|purchase|purchasing|own"
    r"|posseder)\b(?!\s+(?:or|ou)\b)",
    r"\b(?:achat|purchase|buy)\s+(?:uniquement|seulement|only|exclusivement)\b",
    # the way of buying said as a sentence's first word: "Achat, budget 40 k€.", "Purchase: yes", "En achat."
    r"(?:^|[.;!\n]\s*)(?:en\s+)?(?:achat|purchase)\s*(?:[,;.:]|$)(?!\s*(?:ou|or|\?|non|no)\b)",
    r"\b(?:only|uniquement|seulement)\s+(?:to\s+)?(?:buy|purchase|acheter|l'achat)\b",
    r"\b(?:pas de|aucune|no|not)\s+(?:location|rental|renting)s?\b",
    r"\b(?:don't|do not|won't|will not|ne veu\w+ pas|ne voul\w+ pas|ne souhait\w+ pas)\s+(?:want\s+to\s+)?"
    r"(?:rent|louer)\b",
    # data kept out of it: "rien ne doit partir dans le cloud", "nothing may leave for the cloud",
    # "les données ne doivent pas sortir vers le cloud", "data must not go to the cloud"
    r"\b(?:rien ne|aucune donnee ne|aucun document ne|nothing|no data|no document|les donnees ne|nos donnees ne"
    r"|data|the data|our data)\s+(?:\w+\s+){0,2}?(?:partir|aller|sortir|go|leave|be sent|be stored|transiter"
    r"|be uploaded)\w*\s+(?:\w+\s+){0,2}?(?:le |the )?(?:public\s+)?cloud\b",
    # the data kept inside the organisation: "les données ne doivent pas sortir du cabinet", "nos dossiers ne
    # quittent jamais l'hôpital", "data must not leave the building" — a rental would take them out
    r"\b(?:les donnees|nos donnees|les dossiers|nos dossiers|les documents|nos documents|aucune donnee|rien|data"
    r"|the data|our data|patient data|client data|no data|nothing|documents|records)\s+(?:\w+\s+){0,3}?(?:ne\s+)?"
    r"(?:\w+\s+)?(?:pas|jamais|never|not|cannot|can't|may not|must not|mustn't|should not|shouldn't)\s+"
    r"(?:\w+\s+)?(?:sortir|quitter|sortent|quittent|leave|go outside|get out of|be taken out of)\s+(?:de\s+|du\s+"
    r"|des\s+|d')?(?:l'|la\s+|le\s+|les\s+|nos\s+|notre\s+|the\s+|our\s+)?(?:cabinet|entreprise|societe|hopital"
    r"|etablissement|batiment|locaux|murs|maison|site|clinique|etude|mairie|firm|company|building|premises|hospital"
    r"|walls|clinic|office|offices|bureaux|organisation|organization|house|network|reseau interne|internal network"
    r"|datacenter|data cent(?:er|re)|infrastructure)\b",
    r"\b(?:les donnees|nos donnees|les dossiers|nos dossiers|les documents|nos documents|rien)\s+ne\s+"
    r"(?:sort\w*|quitt\w*)\s+(?:jamais|pas)\s+(?:de\s+|du\s+|d')?(?:l'|la\s+|le\s+|nos\s+|notre\s+)?"
    r"(?:cabinet|entreprise|societe|hopital|etablissement|batiment|locaux|murs|maison|site|clinique|etude|mairie"
    r"|bureaux|reseau interne|datacenter|infrastructure)\b",
    # buying said as the plan: "we'd buy", "we will purchase", "nous achèterions", "on va acheter"
    r"\b(?:we'd|we would|we will|we'll|we plan to|we intend to|we want to|we're going to|we are going to|nous allons"
    r"|on va|nous voulons|on veut|nous souhaitons|on souhaite|nous comptons|on compte)\s+(?:\w+\s+)?"
    r"(?:buy|purchase|acheter)\b(?!\s+(?:or|ou|vs|versus)\b)(?![^.;\n]{0,40}\b(?:or rent|ou louer|or lease"
    r"|ou en location|vs rent|cloud|credits?|time on|heures|hours|instances?|abonnements?|subscriptions?))",
    r"\b(?:nous achete\w*|on achete\w*)\b(?!\s+(?:ou|or)\b)(?![^.;\n]{0,40}\bou (?:louer|en location))",
    _RUN_LOCALLY_PATTERN,
    # only on the premises: "on-prem only", "100 % on-premise", "uniquement sur site", "must stay on-prem"
    r"\b(?:on[- ]?prem(?:ise)?s?|sur site|en local|dans nos locaux)\s+(?:only|uniquement|seulement|exclusivement"
    r"|obligatoire(?:ment)?|imperatif|mandatory|required)\b",
    r"\b(?:only|uniquement|exclusivement|strictly|strictement|100 ?%)\s+(?:on[- ]?prem(?:ise)?s?|sur site|en local"
    r"|dans nos locaux)\b",
    r"\b(?:must|has to|have to|needs? to|doi(?:t|vent)|devra(?:it)?|devront)\s+(?:stay|remain|be kept|be hosted|rester"
    r"|etre (?:heberge|garde)e?s?)\s+(?:on[- ]?prem(?:ise)?s?|on site|sur site|in[- ]house|en interne"
    r"|dans nos locaux|chez nous|in our (?:own )?(?:building|premises|datacenter|data cent(?:er|re)))\b",
    _HOSTED_HERE_PATTERN,
)]
_RUN_LOCALLY = next(p for p in _REFUSALS if p.pattern == _RUN_LOCALLY_PATTERN)
# everything kept at home: "Données sensibles donc tout chez nous", "sensitive data, so everything stays in-house"
# (found using the product): nothing may go to a rented machine elsewhere
_ALL_AT_HOME = re.compile(r"\b(?:tout|everything|all of it)\s+(?:(?:reste|restera|doit rester|stays?|must stay"
                          r"|will stay|remains?|est)\s+)?(?:chez nous|en interne|sur site|dans nos locaux|in[- ]house"
                          r"|on[- ]?prem(?:ise)?s?|on[- ]?site|with us|at home|in our (?:own )?(?:building|premises"
                          r"|datacenter|data cent(?:er|re)))\b(?=\s*(?:[.,;:!)\n]|$))")
_REFUSALS.append(_ALL_AT_HOME)
_HOSTED_HERE = next(p for p in _REFUSALS if p.pattern == _HOSTED_HERE_PATTERN)
# "pas de cloud américain, plutôt Scaleway", "pas de cloud public, mais un cloud souverain": one cloud refused,
# another allowed — the scope stays open
_ONE_CLOUD = re.compile(r"\s*(?:americain\w*|us|u\.s\.|american|etranger\w*|foreign|non[- ]europeen\w*|hyperscalers?"
                        r"|des gafam|gafam|chinois\w*|chinese)\b")
_ANOTHER_CLOUD = re.compile(r"\b(?:souverain\w*|sovereign|secnumcloud|cloud prive|private cloud|prive|private)\b")
# a question or an open choice is not a refusal: "cloud ou pas de cloud ?", "no cloud, or should we rent?"
_OPEN = re.compile(r"\?|\b(?:ou bien|whether|either|or not|ou pas|peu importe|doesn't matter|no preference)\b")
# a refusal about the past or said by someone else: "our previous provider refused the cloud"
_HYPOTHETICAL = re.compile(r"\b(?:si|if|unless|sauf si|a moins que)\s+(?:\w+\s+){0,3}$")


def find_cloud_excluded(message: Message) -> Iterator[Found]:
    text = message.with_turned_down()  # ("Cloud solutions were rejected by the board": set aside, still a refusal)
    for pattern in _REFUSALS:
        for m in pattern.finditer(text):
            start, end = sentence_bounds(text, m.start())
            sentence = text[start:end]
            if _OPEN.search(sentence) or _HYPOTHETICAL.search(text, max(start, m.start() - 30), m.start()):
                continue
            if _ANOTHER_CLOUD.search(sentence) or _ONE_CLOUD.match(text, m.end()):
                continue
            # (the customer's words: the deployment rule has read, and blanked, "on Azure")
            if pattern in (_RUN_LOCALLY, _HOSTED_HERE, _ALL_AT_HOME) and re.search(
                    r"\b(?:cloud|rent\w*|lou\w+|location|azure|aws|gcp|scaleway|ovh\w*|runpod|lambda|coreweave)\b",
                    plain(message.original[slice(*message.span(start, end))])):
                continue  # "run it locally or rent in the cloud": two ways weighed, none refused
            yield Found("cloud_excluded", True, m.start(), m.end(), claim=False)
            return


CLOUD_EXCLUDED = Rule(
    "cloud-excluded", ("cloud_excluded",), find_cloud_excluded,
    examples=(("Hébergé chez nous (pas de cloud, données confidentielles).", {"cloud_excluded": True}),
              ("on-prem, pas de cloud", {"cloud_excluded": True}),
              ("Le cloud est exclu pour nous.", {"cloud_excluded": True}),
              ("Procurement ruled out AWS, so this will be a rack server.", {"cloud_excluded": True}),
              ("Azure was vetoed by our CISO; we'll buy.", {"cloud_excluded": True}),
              ("Cloud is not an option; a rack server in our DC.", {"cloud_excluded": True}),
              ("hi we r a small ngo. want a chatbot. cant do cloud", {"cloud_excluded": True}),
              ("Rien ne doit partir dans le cloud.", {"cloud_excluded": True}),
              ("Données sensibles donc tout chez nous.", {"cloud_excluded": True}),
              ("Le conseil a refusé toute solution cloud (délibération n° 12).", {"cloud_excluded": True}),
              ("Cloud solutions were rejected by the board.", {"cloud_excluded": True}),
              ("Patient data must stay on-premises.", {"cloud_excluded": True}),
              ("Hébergement chez nous obligatoire (HDS).", {"cloud_excluded": True}),
              ("Le modèle sera hébergé chez nous.", {"cloud_excluded": True}),
              ("On-site hosting mandatory.", {"cloud_excluded": True}),
              ("On-premises hosting or a cloud rental, we don't know yet.", {}),
              ("On-prem only, for compliance reasons.", {"cloud_excluded": True}),
              ("Les données ne doivent pas sortir vers le cloud.", {"cloud_excluded": True}),
              ("nous ne voulons pas de cloud", {"cloud_excluded": True}),
              ("no public cloud please", {"cloud_excluded": True}),
              # not a refusal
              ("We're fine with either on-prem or cloud at this stage.", {}),
              ("On ne sait pas encore : cloud ou pas de cloud ?", {}),
              ("We have no cloud credits left, so we'd like to buy.", {}),
              ("Pas de cloud public, mais un cloud souverain (SecNumCloud) nous irait.", {}),
              ("Pas de cloud américain svp, on pense plutôt à Scaleway.", {}),
              ("no US cloud for patient data", {}),
              ("We do NOT want anything in the cloud.", {"cloud_excluded": True}),
              ("un assistant interne sans passer par le cloud", {"cloud_excluded": True}),
              ("If cloud is not possible, a tower would do.", {}),
              ("Sur AWS aujourd'hui.", {}),
              ("We don't know yet whether to rent in the cloud or buy.", {}),
              ("Nous préférons acheter, budget 300 k€.", {"cloud_excluded": True}),
              ("We'd rather buy than rent.", {"cloud_excluded": True}),
              ("Achat uniquement, pas de location.", {"cloud_excluded": True}),
              ("we don't want to rent GPUs", {"cloud_excluded": True}),
              ("Achat ou location, peu importe, le moins cher sur 3 ans.", {}),
              ("On préfère acheter ou louer ? À vous de nous dire.", {}),
              ("Les données ne doivent pas sortir du cabinet.", {"cloud_excluded": True}),
              ("Nos dossiers ne quittent jamais l'hôpital.", {"cloud_excluded": True}),
              ("Patient records must never leave the hospital.", {"cloud_excluded": True}),
              ("Data must not leave the country.", {}),
              ("Budget 200k€, we'd buy.", {"cloud_excluded": True}),
              ("We'd buy or rent, whichever is cheaper.", {}),
              ("On veut acheter des crédits cloud.", {}),
              ("Ça doit tourner la nuit. Achat, budget 40 k€.", {"cloud_excluded": True}),
              ("Achat ou location ?", {}),
              ("I want to run it locally for coding help.", {"cloud_excluded": True}),
              ("On voudrait faire tourner le modèle en local.", {"cloud_excluded": True}),
              ("Should we run it locally or rent in the cloud?", {}),
              ("We run tests locally before deploying.", {})),
    doc="a cloud the customer refuses: every other way of buying stays in scope",
)
