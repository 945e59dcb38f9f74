"""Every string the app shows, in French and English, from one catalogue.

Widgets never hold literal UI text: they ask `t(key, lang)`. A test checks that every key has both
languages and that every key the app's sources use exists here.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["fr", "en"]
LANGS: tuple[Lang, ...] = ("fr", "en")

# key -> (français, English)
STRINGS: dict[str, tuple[str, str]] = {
    # Header, footer, bindings
    "app.session": ("session {id} · {title}", "session {id} · {title}"),
    "app.no_session": ("aucune session", "no session"),
    "key.new": ("nouveau", "new"),
    "key.resume": ("reprendre", "resume"),
    "key.save": ("exporter", "export"),
    "key.proposal": ("proposition", "proposal"),
    "key.help": ("aide", "help"),
    "key.quit": ("quitter", "quit"),
    "key.back": ("retour", "back"),
    # Chat
    "chat.agent": ("Agent", "Agent"),
    "chat.you": ("Vous", "You"),
    "chat.input_placeholder": ("Votre réponse, puis Entrée", "Your answer, then Enter"),
    "chat.suggestions": ("suggestions (↓ pour choisir, → pour compléter)",
                         "suggestions (↓ to pick, → to complete)"),
    "chat.assumed": ("par défaut", "assumed"),
    "chat.error": ("Erreur interne : {error}. Votre dernière réponse est conservée ; réessayez.",
                   "Internal error: {error}. Your last answer is kept; try again."),
    # Tool cards
    "tool.label": ("outil", "tool"),
    "tool.running": ("en cours", "running"),
    "tool.arguments": ("Entrées", "Inputs"),
    "tool.result": ("Résultat", "Result"),
    "tool.error": ("Erreur", "Error"),
    "tool.summary_estimate": ("{terms} → {total}/GPU", "{terms} → {total}/GPU"),
    "mem.weights": ("poids", "weights"),
    "mem.kv": ("KV", "KV"),
    "mem.activations": ("activations", "activations"),
    "mem.gradients": ("gradients", "gradients"),
    "mem.optimizer": ("optimiseur", "optimizer"),
    "mem.runtime": ("runtime", "runtime"),
    "tool.summary_recommend": ("{fits} option(s) sur {total} conviennent · recommandé : {best}",
                               "{fits} of {total} options fit · recommended: {best}"),
    "tool.none": ("aucune", "none"),
    # Sidebar
    "side.profile": ("Profil", "Profile"),
    "side.empty": ("(rien encore)", "(nothing yet)"),
    "side.memory": ("mémoire / GPU", "memory / GPU"),
    "side.no_estimate": ("pas encore estimée", "not estimated yet"),
    # Results screen
    "results.recommended": ("Recommandé : {name}", "Recommended: {name}"),
    "results.assumptions": ("Hypothèses de l'outil", "The tool's assumptions"),
    "results.none": ("Aucune configuration ne convient.", "No configuration fits."),
    "results.rank": ("#", "#"),
    "results.offer": ("offre", "offer"),
    "results.gpu": ("GPU", "GPU"),
    "results.precision": ("préc.", "prec."),
    "results.mem": ("mém./GPU", "mem/GPU"),
    "results.tps": ("tok/s", "tok/s"),
    "results.cost": ("€/Mtok", "€/Mtok"),
    "results.price": ("prix", "price"),
    "results.why_not": ("Pourquoi les autres ne conviennent pas", "Why the others do not fit"),
    "results.chart_cost": ("Coût par million de tokens (€), les moins chers", "Cost per million tokens (€), cheapest"),
    "results.chart_tps": ("Tokens de sortie par seconde à la charge demandée",
                          "Output tokens per second at the requested load"),
    "results.chart_mem": ("Mémoire par GPU (GB) et part libre", "Memory per GPU (GB) and free share"),
    "results.empty": ("Pas encore de recommandation : terminez l'entretien.",
                      "No recommendation yet: finish the interview."),
    # Sessions picker
    "sessions.title": ("Reprendre une session", "Resume a session"),
    "sessions.empty": ("Aucune session enregistrée.", "No saved session."),
    # Help
    "help.title": ("Aide", "Help"),
    "help.body": (
        "## Comment ça marche\n\n"
        "L'agent pose les questions qui décident de la taille : modèle, précision, longueurs, "
        "utilisateurs simultanés… Répondez en texte libre, plusieurs réponses à la fois si vous voulez "
        "(« Llama 3.1 70B en fp8, contexte 8k, 32 utilisateurs »).\n\n"
        "- **pourquoi ?** explique la question ;\n"
        "- **je ne sais pas** prend la valeur par défaut et le dit ;\n"
        "- corrigez à tout moment (« en fait bf16 »).\n\n"
        "Chaque appel d'outil apparaît comme une carte : **Tab** pour l'atteindre, **Entrée** pour "
        "l'ouvrir. Chaque chiffre vient d'un résultat d'outil.\n\n"
        "## Touches\n\n"
        "| touche | action |\n|---|---|\n"
        "| Entrée | envoyer la réponse |\n"
        "| ↓ / ↑ | parcourir les suggestions |\n"
        "| → | compléter la suggestion |\n"
        "| ctrl+n | nouvelle session |\n"
        "| ctrl+r | reprendre une session |\n"
        "| ctrl+s | exporter la session (JSON) |\n"
        "| ctrl+p | écrire la proposition |\n"
        "| F3 | résultats |\n"
        "| F2 | english |\n"
        "| ctrl+k | palette de commandes |\n"
        "| F1 | cette aide |\n"
        "| ctrl+q | quitter |\n\n"
        "Chaque réponse est enregistrée immédiatement : rien n'est perdu si vous quittez.",
        "## How it works\n\n"
        "The agent asks the questions that decide the size: model, precision, lengths, concurrent "
        "users… Answer in free text, several answers at once if you like "
        "(\"Llama 3.1 70B in fp8, 8k context, 32 users\").\n\n"
        "- **why?** explains the question;\n"
        "- **I don't know** takes the default value and says so;\n"
        "- correct yourself at any time (\"actually bf16\").\n\n"
        "Every tool call shows as a card: **Tab** to reach it, **Enter** to open it. Every number comes "
        "from a tool result.\n\n"
        "## Keys\n\n"
        "| key | action |\n|---|---|\n"
        "| Enter | send the answer |\n"
        "| ↓ / ↑ | cycle through suggestions |\n"
        "| → | complete the suggestion |\n"
        "| ctrl+n | new session |\n"
        "| ctrl+r | resume a session |\n"
        "| ctrl+s | export the session (JSON) |\n"
        "| ctrl+p | write the proposal |\n"
        "| F3 | results |\n"
        "| F2 | français |\n"
        "| ctrl+k | command palette |\n"
        "| F1 | this help |\n"
        "| ctrl+q | quit |\n\n"
        "Every answer is saved at once: nothing is lost when you quit.",
    ),
    # Command palette
    "cmd.search": ("Chercher une commande…", "Search for commands…"),
    "cmd.new": ("Nouvelle session", "New session"),
    "cmd.new_help": ("Commencer un nouvel entretien", "Start a new interview"),
    "cmd.resume": ("Reprendre une session", "Resume a session"),
    "cmd.resume_help": ("Choisir une session enregistrée", "Pick a saved session"),
    "cmd.save": ("Exporter la session", "Export the session"),
    "cmd.save_help": ("Écrire la session en JSON dans le dossier courant",
                      "Write the session as JSON in the current folder"),
    "cmd.proposal": ("Écrire la proposition", "Write the proposal"),
    "cmd.proposal_help": ("Proposition Markdown et HTML à partir de cette session",
                          "Markdown and HTML proposal from this session"),
    "cmd.results": ("Voir les résultats", "Show the results"),
    "cmd.results_help": ("Tableau de recommandation et graphiques", "Recommendation table and charts"),
    "cmd.lang": ("Switch to English", "Passer en français"),
    "cmd.lang_help": ("Langue de l'interface", "Interface language"),
    "cmd.help": ("Aide", "Help"),
    "cmd.help_help": ("Touches et conseils", "Keys and tips"),
    "cmd.quit": ("Quitter", "Quit"),
    "cmd.quit_help": ("Quitter l'application (tout est déjà enregistré)",
                      "Quit the app (everything is already saved)"),
    # Notices
    "notice.exported": ("Session exportée : {path}", "Session exported: {path}"),
    "notice.proposal_written": ("Proposition écrite : {paths}", "Proposal written: {paths}"),
    "notice.proposal_missing": (
        "Le module de proposition (sizer_agent.proposal) n'est pas installé dans cette version : "
        "aucune proposition écrite.",
        "The proposal module (sizer_agent.proposal) is not installed in this build: no proposal written.",
    ),
    "notice.no_session": ("Aucune session ouverte.", "No session open."),
    "notice.no_results": ("Pas encore de recommandation.", "No recommendation yet."),
    "notice.self_service": ("Non disponible en libre-service.", "Not available in self-service mode."),
}


def t(key: str, lang: Lang, /, **values: object) -> str:
    """The string for `key` in `lang`, with `{name}` placeholders filled from `values`."""
    french, english = STRINGS[key]
    text = french if lang == "fr" else english
    return text.format(**values) if values else text
