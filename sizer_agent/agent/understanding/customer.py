"""The customer's name, from the sentence that states it: "pour la société Dupont Industrie", "we're Acme
Robotics", "working for Renault Digital", "Client : Globex", "notre startup (Kairn)", "le Groupe Ardent".

Only a name is taken: capitalised words joined by at most two particles ("Centre Hospitalier … de la
Vallée du Loing", "Observatoire Régional de l'Emploi"), stopping at the first other lowercase word or
punctuation, and starting a word ("by DeepSeek" names nobody); never a whole sentence. Ways of naming a
company, strongest first: a label ("Client :", "Cust:", "Team:"); a phrase that introduces it ("chez",
"we're", "la DSI de", "working for", "notre startup (…)", "Nous (Lexalgo, …)", "X here"); a name that
says it is an organisation by its first word ("Groupe Ardent", "Université de Rennes", "Garage Moreau")
or its last ("Acme Robotics", "Kestrel Water Services", "Brambleway Cafés"); a legal form ("Dupont SAS").
Below a sign-off ("Cordialement", "Best"), names are the writer's: they count only when the message does
not speak of a client as a third party (a consultant signing with their own firm is not the customer).
Product, vendor and cloud names are not customers; a place is not one ("ingénieur à Sophia Antipolis",
"Hello from New York").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message, plain

_UPPER = "A-ZÀ-ÖØ-Þ"
# "Acme", "3M", "iRobot", "AT&T", and the abbreviations a name may start with ("St. Brigid's Hospital")
_WORD = (rf"(?:(?:St|Ste|Mt|Ft|Dr)\.(?=[ \t]+[{_UPPER}])|[{_UPPER}0-9](?:[\w&'’+-]|\.(?=\w))*"
         rf"|[a-z]+[{_UPPER}][\w&-]*)")
_PARTICLE = r"(?:de|du|des|la|le|les|et|and|of|the|&|von|van|der|di|da|y)"
# between two words of a name: up to two particles and an elision ("Vallée du Loing", "de la Vallée",
# "Observatoire Régional de l'Emploi", "Fournil d'Or")
_GLUE = rf"[ \t]+(?:{_PARTICLE}[ \t]+){{0,2}}(?:[dl]['’])?"
# the name starts a word: never the middle of one ("DeepSeek" holds no name "epSeek")
NAME = rf"(?<![\w])(?P<name>{_WORD}(?:{_GLUE}{_WORD}){{0,5}})"
_LEGAL = (r"(?:SAS|SARL|SA|SASU|SCOP|SCA|SNC|EURL|GIE|GmbH|AG|ASA|AB|AS|Oy|Inc\.?|Ltd\.?|LLC|PLC|plc|BV|NV|SpA"
          r"|S\.A\.|SE|Corp\.?|Co\.)")

# Nouns for an organisation, written lowercase before its name ("la société Dupont", "our client Acme").
_ORG_NOUN = (r"(?:soci[ée]t[ée]|entreprise|groupe|start-?up|pme|eti|cabinet|banque|assureur|mutuelle|h[ôo]pital|chu"
             r"|clinique|mairie|collectivit[ée]|[ée]cole|universit[ée]|laboratoire|labo|agence|marque|enseigne"
             r"|fondation|association|minist[èe]re|organisation|organization|company|firm|bank|insurer|hospital"
             r"|university|lab|agency|startup|client|customer|business|utility|subsidiary|filiale|projet|project)")
# First words that make a capitalised phrase an organisation's name ("Groupe Ardent", "Université de Rennes").
_ORG_FIRST = (r"(?:Groupe|Cabinet|Mutuelle|[ÉE]cole|Universit[ée]|[ÉE]ditions|Communaut[ée]|Banque|Cr[ée]dit|Caisse"
              r"|Clinique|Centre|H[ôo]pital|Institut|Laboratoires?|Fondation|Association|Soci[ée]t[ée]|Menuiseries"
              r"|Transports|Assurances|Mairie|Lyc[ée]e|Coll[èe]ge|University|College|Institute|Bank|Hospital|Clinic"
              r"|Stadtwerke|Observatoire|Office|Agence|Chambre|Syndicat|Conservatoire|Mus[ée]e|Th[ée][âa]tre"
              r"|Acad[ée]mie|Compagnie|Ateliers?|Maison|Garage|Boulangeries?|Pharmacie|Restaurant|H[ôo]tel|Domaine"
              r"|Ch[âa]teau|Librairie|Imprimerie|Fonderies?|Polytech|Instituto|Istituto|Universidad|Universit[àä]t?"
              r"|Hochschule)")
# Last words that make a capitalised phrase an organisation's name ("Acme Robotics", "Polaris Insurance").
_ORG_LAST = (r"(?:University|Universit[ée]|Trust|Insurance|Assurances?|Logistics|Logistique|Energy|[ÉE]nergie|Services"
             r"|Capital|Robotics|Industries?|Digital|Conseil|Consulting|Architectes|Associ[ée]s|Partners|Systems"
             r"|Technologies|Technology|Solutions|Labs?|Group|Bank|Health|Sant[ée]|Pharma|Media|M[ée]dias|Analytics"
             r"|Software|Holdings?|Motors|Retail|Foods|Water|Networks|Telecom|Electric|Engineering|Ing[ée]nierie"
             r"|Consultants|Avocats|Studios?|Games|Finance|Financial|Biotech|Medical|M[ée]dical|Manufacturing"
             r"|Automotive|Aerospace|Airlines|Hotels?|Immobilier|Distribution|Interactive|Ventures|Labs|Shipping|Textiles?"
             r"|Mobility|Mobilit[ée]|Caf[ée]s?|Restaurants|Bakery|Diagnostics|Parts|Emballages|Legal|Chemicals"
             r"|Materials|Pharmaceuticals|Therapeutics|Bio|Genomics|Electronics|Instruments|Devices"
             r"|Publishing|Freight|Housing|Authority|Energies|[ÉE]nergies|Telecoms?|Marine|Maritime"
             r"|Mining|Steel|Packaging|Printing|Apparel|Cosmetics|Academy)")
_SUB_UNIT = re.compile(r"(?:Lab|Labs|Team|Department|Dept\.?|Service|Division|Unit|Équipe|Direction|Laboratoire)$")

_I = "(?i:"  # introducers are matched whatever their case; the name itself must be capitalised
_OF = r"(?:(?:de|du|of|at|chez)(?![\w])|d['’])"  # a whole word: "by DeepSeek" holds no "de"
_THE = r"(?:(?i:the|la|le|les)[ \t]+|(?i:l)['’])?"  # "at the Port Authority of …", "pour la Régie des Eaux …"
INTRODUCERS: tuple[re.Pattern[str], ...] = tuple(re.compile(p) for p in (
    # "Client : Groupe Hospitalier Saint-Luc", "Cust: Numalys (ESN)", "- Team: Orchard Vision" — a label
    # takes the rest of its line; it starts the line or follows a dash ("CR 03/04 — client : Papeteries …")
    r"(?m)(?:^[ \t]*(?:[-•*][ \t]*)?|[ \t][–—|][ \t]+)" + _I + r"client(?: final)?|customer|end customer"
    r"|soci[ée]t[ée]|entreprise|company|organisation|organization|compte|account|cust|clt"
    r"|(?:client|customer|company) name|nom du client|team|[ée]quipe|projet|project)[ \t]*:[ \t]*"
    r"(?P<name>[^\n(:]{2,80}?)[ \t]*(?:\(|[.;]?[ \t]*$|,| [–—-]{1,2} )",
    # "Objet : Dimensionnement serveur IA – Boulangeries Martin", "Subject: GPU sizing for Harlow Legal"
    r"(?m)^[ \t]*" + _I + r"objet|subject|re|fwd?|tr)[ \t]*:[^\n]*?(?:[ \t][–—-][ \t]+|[ \t](?i:for|pour)[ \t]+)"
    + NAME + r"[ \t]*$",
    # "This is for Northwind Traders", "un devis pour Dupont SAS", "sizing for Acme"
    _I + r"(?<![\w])(?:this is|it's|it is|c'est|sizing|dimensionnement|devis|quote|quotation|proposal|offre)"
    r"[ \t]+(?:for|pour))[ \t]+" + NAME,
    # "the company is Tidewater AI", "le client est Nexalis"
    _I + r"(?<![\w])(?:company|client|customer|soci[ée]t[ée]|entreprise)(?: name)?[ \t]+(?:is|est))[ \t]+" + NAME,
    # "notre startup (Kairn)", "a small firm (Patel & Moore, 30 staff)", "Nous (Lexalgo, legaltech)"
    _I + r"(?:" + _ORG_NOUN + r"[^()\n.]{0,60}?(?:\n[^()\n.]{0,60}?)?|(?<![\w])(?:nous|we|us)[ \t]*))\(\s*"
    + NAME + r"\s*[),]",
    # "pour la société Dupont Industrie", "enseigne Brico Ouest", "company Sinotex" (a capitalised noun is
    # part of the name: "le Groupe Ardent" is "Groupe Ardent", found below)
    r"(?<![\w])" + _ORG_NOUN + r"[ \t]+" + NAME,
    # "un petit cabinet, Lemoine Architectes"
    r"(?<![\w])" + _ORG_NOUN + r"(?:[ \t]+[\w-]+){0,2},[ \t]+" + NAME,
    _I + r"(?<![\w])(?:chez|au sein de|de la part de|au nom de|on behalf of|aupr[eè]s de))[ \t]+" + _THE + NAME,
    _I + r"(?<![\w])(?:working|work|works|i work|we work|je travaille|nous travaillons|on travaille)[ \t]+"
    r"(?:for|at|with|pour|chez|[àa] la|au|aux))[ \t]+" + _THE + NAME,
    _I + r"(?<![\w])(?:we(?:'| a)re|we are|nous sommes|on est|this is|here at|ici)[ \t]+(?:the[ \t]+)?)" + NAME,
    # "Jonas here from Lumio", "Claire ici, de chez Ombelle", "Tomasz from DataHive here": the
    # organisation, not the writer
    _I + r"(?<![\w])(?:here|ici),?[ \t]+(?:from|at|with|de chez|chez))[ \t]+" + _THE + NAME,
    rf"(?<![\w])[{_UPPER}][\w'’-]+[ \t]+(?i:from|at|de chez|chez)[ \t]+" + NAME + r"[ \t]+(?i:here|ici)\b",
    _I + r"(?<![\w])(?:i represent|we represent|representing|je repr[ée]sente|nous repr[ée]sentons))[ \t]+"
    + _THE + NAME,
    _I + r"(?<![\w])(?:i'?m|i am|je suis)[ \t]+(?:with|chez|de chez))[ \t]+" + _THE + NAME,
    # "I'm the procurement officer at the Port Authority of Wexmouth", "je suis le CTO de Finlytics": the
    # words between are a role (lowercase, or an acronym), never part of a name
    _I + r"(?<![\w])(?:i'?m|i am|je suis))(?:[ \t]+(?:[a-zà-ÿ][\w'’-]*|[A-Z]{2,4})){1,6}?[ \t]+"
    + _I + r"(?:(?:from|de chez)(?![\w])|" + _OF + r"))[ \t]*" + _THE + NAME,
    # "la DSI de Ciments Vercors", "je suis le CTO de Finlytics", "le besoin d'Optéa", "Équipe R&D de Kairos"
    _I + r"(?<![\w])(?:cto|ceo|cio|cdo|dsi|directeur\w*|directrice|responsable\w*|head of[ \w]{1,30}?|manager|lead"
    r"|direction[\w' ]{0,45}?|service[\w' ]{0,30}?|d[ée]partement|department|besoin|demande|projet|dossier"
    r"|(?:team|[ée]quipe)(?:[ \t]+[\w&/-]+){0,2}?)[ \t]+" + _OF + r"[ \t]*)" + _THE + NAME,
    # "aux Éditions Lavallée nous voulons", "analysts at Northbridge Capital": two words at least ("at
    # Lyon" is a place)
    _I + r"(?<![\w])(?:at|aux?|[àa] la|[àa] l'))[ \t]*" + NAME,
))
_LOOSE = INTRODUCERS[-1]  # its names need two words
_ORG_FIRST_NAME = re.compile(
    rf"(?<![\w])(?P<name>{_ORG_FIRST}(?:{_GLUE}{_WORD}|[ \t]+d'[\wÀ-ÿ-]+)+)")
_ORG_LAST_NAME = re.compile(rf"(?<![\w])(?P<name>{_WORD}(?:[ \t]+(?:&[ \t]+)?{_WORD}){{0,3}}[ \t]+{_ORG_LAST}"
                            rf"(?:[ \t]+{_LEGAL})?)(?![\w])")
_LEGAL_NAME = re.compile(rf"{NAME}[ \t]+(?P<legal>{_LEGAL})(?![\w])")
# "ShelfSense here.", "Hi,\n\nAcme here": a line that starts with the name
_HERE = re.compile(rf"(?m)^[ \t]*(?:(?i:hi|hello|hey|bonjour|salut)\W+)?{NAME}[ \t]+(?:here|ici)\b")
# a signature line "First Last – Organisation", unless what follows the dash is a role or a department
_SIGNED = re.compile(rf"(?m)^[ \t]*(?:[{_UPPER}][\w'’.-]*[ \t]+){{0,2}}[{_UPPER}][\w'’-]+[ \t]+[–—-][ \t]+{NAME}"
                     rf"[ \t]*$")
_ROLE_WORD = re.compile(r"(?i)(?:directeur|directrice|director|head|service|direction|d[ée]partement|department"
                        r"|c[teiof]o|dsi|manager|responsable|consultant|ing[ée]nieur|engineer|chef|lead|g[ée]rante?|pr[ée]sident"
                        r"|founder|fondat\w+|senior|junior|charg[ée]e?|assistante?|achats|procurement|it|rh|hr|team"
                        r"|[ée]quipe|buyer|acheteu\w+|cabinet du)(?![\w])")
_SIGN_OFF = re.compile(r"(?im)^[ \t]*(?:cordialement|bien (?:cordialement|[àa] vous)|regards|best(?: regards)?"
                       r"|kind regards|yours (?:faithfully|sincerely|truly)|thanks|thank you|merci\b|sincerely|cheers"
                       r"|bonne journ[ée]e"
                       r"|--|—|r[ée]dig[ée] par)")
_THIRD_PARTY = re.compile(r"(?i)(?<![\w])(?:notre|our|the|le|leur|their|mon|my|ce|this)\s+(?:client|customer)\b"
                          r"|pour le compte"
                          r"|on behalf|j'accompagne|forwarding|je (?:te|vous) transmets|transmis|their requirements")

# Capitalised words that are not company names: openers, pronouns, product, vendor and cloud names.
STOP = frozenset(plain(w) for w in (
    "we", "nous", "our", "notre", "nos", "votre", "your", "the", "le", "la", "les", "un", "une", "a", "an", "this",
    "that", "ce", "cette", "it", "il", "elle", "on", "they", "ils", "je", "i", "bonjour", "hello", "hi", "hey",
    "merci", "thanks", "thank", "dear", "cher", "chère", "madame", "monsieur", "cordialement", "regards", "best",
    "ai", "ia", "gpu", "gpus", "cpu", "llm", "llms", "rag", "api", "apis", "ecc", "cad", "cao", "fp8", "bf16",
    "fp16", "int4", "int8", "vram", "ram", "ssd", "nvme", "llama", "qwen", "mistral", "mixtral", "gemma",
    "deepseek", "phi", "gpt", "openai", "meta", "google", "microsoft", "nvidia", "amd", "intel", "vllm", "sglang",
    "tensorrt", "ollama", "transformers", "pytorch", "jax", "tensorflow", "hugging", "face", "huggingface", "h100",
    "h200", "a100", "l40s", "b200", "b300", "rtx", "mi300x", "dgx", "hgx", "aws", "azure", "gcp", "ovh", "ovhcloud",
    "scaleway", "coreweave", "lambda", "runpod", "outscale", "dell", "hpe", "supermicro", "lenovo", "unsloth",
    "axolotl", "tgi", "chatgpt", "claude", "copilot", "revit", "twinmotion", "solidworks", "blender", "keyshot",
    "redshift", "catia", "autocad", "falcon", "stable", "diffusion", "cloud", "linux", "windows", "lundi", "mardi",
    "mercredi", "jeudi", "vendredi", "monday", "tuesday", "wednesday", "thursday", "friday", "january", "february",
    "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre",
    "décembre", "q1", "q2", "q3", "q4", "inference", "inférence", "training", "fine-tuning", "lora", "qlora",
    "chatbot", "assistant", "budget", "model", "modèle", "objet", "subject", "re", "fw", "tl", "dr", "ps",
    "hq", "siège", "yolo", "resnet", "vit", "efficientnet", "segformer", "sam", "u-net", "ide", "slack", "teams",
    "excel", "sharepoint", "confluence", "jira", "python", "docker", "kubernetes", "k8s", "rh", "hr", "it", "si",
    "amazon", "oracle", "ibm", "apple", "anthropic", "mistralai", "hetzner", "vultr", "paperspace", "modal",
))


_ROLE = re.compile(r"^(?:DSI|CTO|CEO|CIO|CDO|Direction|Service|D[ée]partement|Department|Team|[ÉE]quipe|Responsable)"
                   r"[ \t]+(?:de|d'|du|des|of|at)[ \t]*")


_TAIL_OK = frozenset({"ai", "ia", "cloud", "data"})  # stop words that end a name well ("Brightloop AI", "Acme Cloud")
# a noun for any company, dropped before a name of two words or more ("Société Vigie Parking" is "Vigie
# Parking", as "la société Dupont Industrie" is "Dupont Industrie"); one word keeps it ("Société Générale")
_GENERIC_FIRST = re.compile(r"^(?:Soci[ée]t[ée]|Entreprise|Company)[ \t]+(?=\S+[ \t]+\S)")


def _stop_word(word: str, first: bool) -> bool:
    folded = plain(word).strip(".,'’")
    if folded not in STOP:
        return False
    if first:
        return True
    return not (folded in _TAIL_OK or (word.islower() and re.fullmatch(_PARTICLE, word)))


def clean_name(raw: str) -> str | None:
    """Trim trailing particles and punctuation; None when what is left is not a name."""
    words = raw.strip(" .,;:!?'’\"").split()
    while words and re.fullmatch(_PARTICLE, words[-1].lower()):
        words.pop()
    while words and plain(words[0]).strip(".,") in STOP:
        words.pop(0)  # "Bonjour Acme" -> "Acme"
    if not words:
        return None
    name = re.sub(r"['’]s$", "", " ".join(words).strip(" .,;:!?'’\""))  # "Acme's" -> "Acme"
    name = _ROLE.sub("", name)  # "DSI de Ciments Vercors" -> "Ciments Vercors"
    name = _GENERIC_FIRST.sub("", name)
    if re.match(r"\d", name) and not re.fullmatch(r"\d+[A-Z]{1,4}", name.split()[0]):
        return None  # "640x640", "1.6 kW": a figure, not a name ("3M" is one)
    if not name or any(_stop_word(w, i == 0) for i, w in enumerate(name.split())) or re.fullmatch(r"[\d\s.,]+", name):
        return None
    if not re.match(rf"[{_UPPER}0-9]|[a-z]+[{_UPPER}]", name):
        return None
    return name


def _institution(original: str, end: int) -> str | None:
    """'Language Technologies Lab at Eastbrook University': the institution a sub-unit belongs to."""
    m = re.match(rf"[ \t]+(?:at|of|de|du|d')[ \t]*{NAME}", original[end:])
    return clean_name(m.group("name")) if m else None


def _candidates(original: str, limit: int) -> Iterator[tuple[int, str]]:
    """(start, name) for every way of naming a company, strongest first, in original[:limit]."""
    body = original[:limit]
    for pattern in INTRODUCERS:
        for m in pattern.finditer(body):
            name = clean_name(m.group("name"))
            if name is None or (pattern is _LOOSE and len(name.split()) < 2):
                continue
            if _SUB_UNIT.search(name):
                name = _institution(body, m.end("name")) or name
            yield m.start("name"), name
    for pattern in (_ORG_FIRST_NAME, _ORG_LAST_NAME, _LEGAL_NAME):
        for m in pattern.finditer(body):
            end = m.end("legal") if pattern is _LEGAL_NAME else m.end("name")
            name = clean_name(body[m.start("name"):end])
            if name is not None:
                if _SUB_UNIT.search(name):
                    name = _institution(body, end) or name
                yield m.start("name"), name


def _signature_start(original: str) -> int | None:
    """Where the writer's signature starts: a sign-off line, or a last paragraph of a few short lines."""
    sign_off = _SIGN_OFF.search(original)
    if sign_off is not None:
        return sign_off.start()
    body = original.rstrip()
    cut = body.rfind("\n\n")
    if cut > 0:
        lines = [line for line in body[cut:].splitlines() if line.strip()]
        short = all(len(line) <= 70 and not line.rstrip().endswith((".", "?", "!")) for line in lines)
        if 0 < len(lines) <= 4 and short:
            return cut
    return None


def find_customer(message: Message) -> Iterator[Found]:
    original = message.original
    signature = _signature_start(original)
    zones = [len(original)]
    if signature is not None:
        zones = [signature]
        if not _THIRD_PARTY.search(original):
            zones.append(len(original))  # the writer's own signature names the customer
    here = _HERE.search(original)
    for limit in zones:
        for start, name in _candidates(original, limit):
            offset = original.find(name, start)
            if offset < 0:
                continue
            a, b = message.view_span(offset, offset + len(name))
            if message.negated(a):
                continue
            yield Found("customer", name, a, b)
            return
    if here is not None and (here_name := clean_name(here.group("name"))):
        a, b = message.view_span(here.start("name"), here.start("name") + len(here_name))
        yield Found("customer", here_name, a, b)
        return
    if signature is not None and len(zones) > 1:  # "Sébastien – Mobilis Urbain", the writer's own signature
        for m in _SIGNED.finditer(original, signature):
            signed = clean_name(m.group("name"))
            if signed is not None and not _ROLE_WORD.match(signed):
                a, b = message.view_span(m.start("name"), m.start("name") + len(signed))
                yield Found("customer", signed, a, b)
                return


CUSTOMER = Rule(
    "customer-name", ("customer",), find_customer,
    examples=(
        ("Bonjour, pour la société Dupont Industrie on voudrait héberger Llama", {"customer": "Dupont Industrie"}),
        ("Hi, we're Acme Robotics and we want to serve Llama 3.1 8B", {"customer": "Acme Robotics"}),
        ("I'm working for Renault Digital on a chatbot", {"customer": "Renault Digital"}),
        ("Client : Globex", {"customer": "Globex"}),
        ("Devis pour Dupont SAS", {"customer": "Dupont SAS"}),
        ("Salut, pour notre startup (Kairn) on veut une machine", {"customer": "Kairn"}),
        ("Le Groupe Ardent souhaite un assistant", {"customer": "Groupe Ardent"}),
        ("we're the Language Technologies Lab at Eastbrook University", {"customer": "Eastbrook University"}),
        ("Merci.\nCordialement,\nA. Roche – Nova Conseil, pour le compte de notre client", {}),
        ("on aimerait louer des GPU chez OVHcloud", {}),
        ("we meet at Lyon next week", {}),
        ("Objet : Dimensionnement serveur IA – Boulangeries Martin", {"customer": "Boulangeries Martin"}),
        ("Subject: GPU sizing for Harlow Legal", {"customer": "Harlow Legal"}),
        ("This is for Northwind Traders, a mid-size distributor.", {"customer": "Northwind Traders"}),
        ("We're looking to serve Llama 3.1 70B", {}),
        ("La machine sert aussi à la CAO sous SolidWorks", {}),
        ("Je travaille au Centre Hospitalier Régional de la Côte d'Opale.",
         {"customer": "Centre Hospitalier Régional de la Côte d'Opale"}),
        ("We're the IT department of St. Luke's Medical Center", {"customer": "St. Luke's Medical Center"}),
        ("a support bot backed by DeepSeek R1", {}),
        ("Société Pixel Nord : on veut un assistant", {"customer": "Pixel Nord"}),
        ("- Company: Lumen AI\n- Model: Qwen3 8B", {"customer": "Lumen AI"}),
        ("The company is Nordwave AI, by the way.", {"customer": "Nordwave AI"}),
        ("Cust: Barnett Freight (Leeds)", {"customer": "Barnett Freight"}),
        ("- Team: Blue Heron", {"customer": "Blue Heron"}),
        ("Nous (Atelier Brume, 8 personnes) voulons un serveur", {"customer": "Atelier Brume"}),
        ("a small agency here (Fox & Lane, 12 staff)", {"customer": "Fox & Lane"}),
        ("pour le projet HERMES (défense)", {"customer": "HERMES"}),
        ("Hi,\n\nQuantaleaf here. We want to host a model", {"customer": "Quantaleaf"}),
        ("Hello from Redwing Studios!", {"customer": "Redwing Studios"}),  # a studio, by its last word
        ("Hello from New York! We want to serve Llama", {}),
        ("hi! Jonas here from Lumio. We'd like to host Gemma", {"customer": "Lumio"}),
        ("Claire ici, de chez Ombelle", {"customer": "Ombelle"}),
        ("Hi, Tomasz from DataHive here.", {"customer": "DataHive"}),
        ("Good morning, I represent Castell & Daughters Winery.", {"customer": "Castell & Daughters Winery"}),
        ("Je représente la Coopérative Fruitière du Jura", {"customer": "Coopérative Fruitière du Jura"}),
        ("Je suis doctorante à Sorbonne Université", {"customer": "Sorbonne Université"}),
        ("I'm a PhD student at Hochschule Aalen", {"customer": "Hochschule Aalen"}),
        ("I'm an engineer in Paris", {}), ("I'm a researcher in Machine Learning", {}),
        ("Je suis ingénieur à Sophia Antipolis", {}),
        ("I'm the buyer at the Harbour Board of Kestrel", {"customer": "Harbour Board of Kestrel"}),
        ("Merci d'avance,\nGarage Lefort", {"customer": "Garage Lefort"}),
        ("Merci de votre retour.\nSébastien – Mobilis Urbain", {"customer": "Mobilis Urbain"}),
        ("Thanks!\nAnna Berg - Fjordlight", {"customer": "Fjordlight"}),
        ("Cordialement,\nNathalie Perrin – Service Achats", {}),
        ("Regards,\nJ. Smith - Head of IT", {}),
        ("we run the chat for Harbourline Cafés", {"customer": "Harbourline Cafés"}),
        ("Je travaille pour la Régie des Eaux du Pays Basque.", {"customer": "Régie des Eaux du Pays Basque"}),
        ("CR réunion 03/04 — client : Papeteries du Léman", {"customer": "Papeteries du Léman"}),
    ),
    doc="the company or project named by the sentence that introduces it",
)
