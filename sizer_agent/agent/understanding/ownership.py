"""Cards the customer already has: "we already own 2 A100 80GB", "nous avons déjà 4 L40S", "our existing 8x H100".

"Can our cards serve it?" is a question about those cards before it is a purchase: `gpus_owned` asks the
recommendation to check the named GPUs, in the named number, as they are, and to say so first. Cards being
replaced or retired are the past, not the machine to check ("remplacer nos 4 V100" is read by the GPU rule
as no plan at all).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message, plain, sentence_bounds

_OWNED = re.compile(
    r"\b(?:already (?:own|have|got|run|use)|we (?:own|have got)|we've got|we have|our (?:existing|current)"
    r"|existing|nous avons d[eé]j[aà]|on a d[eé]j[aà]|j'ai d[eé]j[aà]|nous disposons|on dispose|je dispose"
    r"|d[eé]j[aà] en place|already in place|en notre possession|que nous avons|qu'on a|that we have"
    # the card named before, taken up by a pronoun: "We already have one in our server", "on en a déjà deux"
    r"|(?:on|nous) en (?:a|avons) d[eé]j[aà]|j'en ai d[eé]j[aà]|(?:on|nous) l'(?:a|avons) d[eé]j[aà]"
    # a machine had, with its card: "on a un PC avec une RTX 4090", "j'ai une tour équipée d'une 4090"
    # (the machine's word may already be read, and blanked, by the deployment rule)
    r"|(?:on a|nous avons|j'ai|i have|i've got)\s+(?:un|une|a|an)\s+(?:pc|machine|serveur|server|station|poste"
    r"|workstation|desktop|box|tour|ordinateur|computer|laptop|portable|_+)(?![\w])[^.;?!\n]{0,25}?\b(?:avec|with"
    r"|equipee?s?|equipped)"
    # the card had, then where it sits: "On a une RTX 5090 dans une tour, ça suffit ?"
    r"|(?<!\bsi )(?:on a|nous avons|j'ai)(?=\s+(?:(?:une|un|deux|trois|quatre|\d{1,2})\s*x?\s*)?"
    r"(?:nvidia\s+|geforce\s+)?"
    r"(?:(?:rtx|a100|h100|h200|l40s?|l4|a6000|mi\d{3}x?)\b|_{3,})[^.;?!\n]{0,25}?(?:dans|sur|chez)\b))")
# cards the customer can use now: "64 H100 available in our cluster", "we have access to 16 A100 on our HPC",
# "notre cluster dispose de 32 H100" (a cloud's availability is a rental: "available on AWS" is not here). Read on
# the customer's own words: the deployment rule has blanked "our cluster" by then.
_ACCESS = re.compile(r"\b(?:available (?:in|on|at|within) (?:our|the lab's|the company's)|(?:we|i) (?:have|get|got)"
                     r" access to|(?:nous avons|on a|j'ai) acces|disponibles? (?:dans|sur|chez) (?:notre|nos)"
                     r"|(?:our|notre) (?:cluster|datacenter|data cent(?:er|re)|supercomputer|supercalculateur|hpc)"
                     r"\s+(?:has|have|with|avec|a|compte|dispose)"
                     # a machine of the writer's with its card: "sur notre station avec une RTX 4090"
                     r"|(?:notre|nos|mon|ma|our|my)\s+(?:pc|machine|serveur|server|station|poste|workstation|desktop"
                     r"|box|tour|ordinateur|computer|laptop|portable)\s+(?:avec|with|equipee?s? d'|equipped with))\b")
# "we have a budget for 8 H200", "an 8x H200 box in mind", "we have 6 lines so 6 GPUs": money, plans or other
# things had, not cards owned
_NOT_CARDS_HAD = re.compile(r"\b(?:budget\w*|in mind|en t[eê]te|prefer\w*|prefere\w*|thinking|vise\w*|visons|l'idee"
                            r"|idea|plan\w*|partnership|partenariat|lines?|lignes?|euros?|k€|€)")
_REPLACED = re.compile(r"\b(?:remplac\w*|replac\w*|upgrad\w*|retir\w*|renouvel\w*|obsolete\w*|old|vieill?e?s?"
                       r"|anciens?|anciennes?|instead|au lieu)\b")


# a count of cards in the sentence: "2 A100 80GB", "4x L40S", "8 H100s", "deux RTX 5090"
_CARDS = re.compile(r"\b\d{1,4}\s*(?:x\s*)?(?:nvidia\s+|amd\s+)?(?:a100|a40|a10g?|h100|h200|h20|l40s?|l4|t4|v100"
                    r"|b200|b300|gb200|mi\d{3}x?|rtx|quadro|a[2456]000|gpus?|cartes?|cards?)")


# one card named after a machine had: "avec une RTX 4090", "with an RTX 5090"
_ONE_CARD = re.compile(r"\b(?:avec|with|equipee?s? d'|equipped with)\s+(?:une|un|an|a|one)\s+(?:nvidia\s+|geforce\s+)?"
                       r"(?:rtx|a100|h100|h200|l40s?|l4|a6000|mi\d{3}x?)\b")


# a correction right after the sentence: ". euh non, 4 RTX 6000 Ada", "... sorry, 2 L40S"
_CORRECTED_AFTER = re.compile(r"[ \t.…]*(?:(?:euh|enfin|ah|oh|heu)[ \t]+)?(?:non|no|nope|pardon|sorry|desole|oops"
                              r"|actually|en fait|i mean|je veux dire)\b")


# "already have one", "own two of them", "on en a déjà une": the cards the message named before, taken up
_PRONOUN_AFTER = re.compile(r"\s+(?:one|two|three|four|\d{1,2}|it|them|those|these)\b(?!\s*(?:of\s+)?(?:budget"
                            r"|plan|idea|quote|offer|question|server|machine|workstation|box))"
                            # "we already have it approved": a decision had, not a card
                            r"(?!\s+(?:approved|validated|budgeted|signed|planned|in mind|covered|priced|quoted)\b)")


def _taken_up(message: Message, cue: re.Match[str]) -> bool:
    """A card named earlier in the message and taken up by a pronoun or a count after the cue."""
    named_before = any(at[0] < cue.start() for name, at in message.found_at.items()
                       if name in ("num_gpus", "gpu_preference"))
    if not named_before:
        return False
    words = cue.group(0)
    if re.search(r"\ben\b|l'", words):  # "on en a déjà", "on l'a déjà": the pronoun is in the cue
        return True
    return bool(_PRONOUN_AFTER.match(message.text, cue.end()))


# a possessive before a card: "sur ma RTX 4090 à la maison", "on my RTX 4090", "avec notre A6000", "our two L40S"
# (the GPU rule may have blanked the card: its finding's place counts as the card)
_POSSESSIVE = r"\b(?:my|our|ma|mon|mes|notre|nos)\s+(?:(?:\d{1,2}|two|three|four|deux|trois|quatre)\s*x?\s*)?"
_POSSESSIVE_CARD = re.compile(_POSSESSIVE + r"(?:nvidia\s+|geforce\s+)?(?:rtx\s*)?(?:a100|a40|a10g?|h100|h200|l40s?|l4"
                              r"|t4|v100|a[2456]000|[345]0[6789]0(?:\s*ti)?|mi\d{3}x?)\b")
_POSSESSIVE_BEFORE = re.compile(_POSSESSIVE + r"(?:nvidia\s+|geforce\s+)?$")
# a card the writer will have, or someone else's: "our new RTX 5090", "notre future H100", "my colleague's A6000"
_NOT_YET = re.compile(r"\b(?:new|nouvel\w*|nouveau\w*|future?|futur\w*|would|voudri\w*|aimeri\w*|buy|acheter|achat"
                      r"|order\w*|command\w*|planned|prevue?s?|colleague\w*|collegue\w*|friend\w*|ami\w*|partner\w*"
                      r"|partenaire\w*)\b")


def _possessed(message: Message) -> Iterator[Found]:
    text = message.text
    places = [at for name, at in message.found_at.items() if name in ("num_gpus", "gpu_preference")]
    cues = [m.span() for m in _POSSESSIVE_CARD.finditer(text)] + [
        (m.start(), at[1]) for at in places if (m := _POSSESSIVE_BEFORE.search(text, max(0, at[0] - 20), at[0]))] + [
        # (the GPU rule's words may start with the possessive: "ma RTX 4090", "my 4090")
        at for at in places if re.match(_POSSESSIVE, plain(message.original[slice(*message.span(*at))]))]
    for start_at, end_at in sorted(cues):
        if message.negated(start_at):
            continue
        start, end = sentence_bounds(text, start_at)
        a, b = message.span(start, end)
        said = plain(message.original[a:b])
        if _REPLACED.search(said) or _NOT_YET.search(said) or _NOT_CARDS_HAD.search(said):
            continue
        yield Found("gpus_owned", True, start_at, end_at, claim=False)
        return


def find_gpus_owned(message: Message) -> Iterator[Found]:
    yield from _owned(message)


def _owned(message: Message) -> Iterator[Found]:
    found = False
    for found_one in _said_owned(message):
        found = True
        yield found_one
    if not found:
        yield from _possessed(message)


def _said_owned(message: Message) -> Iterator[Found]:
    yielded = False
    for found in _said_owned_cues(message):
        yielded = True
        yield found
    if yielded:
        return
    original = plain(message.original)
    for cue in _ACCESS.finditer(original):
        start, end = sentence_bounds(original, cue.start())
        said = original[start:end]
        at_a, at_b = message.view_span(cue.start(), cue.end())
        read = any(at_a - 200 <= at[0] and at[0] < at_b + 200 and start <= message.span(*at)[0] < end
                   for name, at in message.found_at.items() if name in ("num_gpus", "gpu_preference"))
        if (read or _CARDS.search(said) or _ONE_CARD.search(said)) and not message.negated(at_a) \
                and not _REPLACED.search(said) and not _NOT_CARDS_HAD.search(said) and not _NOT_YET.search(said):
            yield Found("gpus_owned", True, at_a, at_b, claim=False)
            return


def _said_owned_cues(message: Message) -> Iterator[Found]:
    for cue in _OWNED.finditer(message.text):
        if message.negated(cue.start()):
            continue
        start, end = sentence_bounds(message.text, cue.start())
        if _CORRECTED_AFTER.match(message.text, end):
            # "On a déjà 4 RTX A6000... euh non, 4 RTX 6000 Ada": the cards had are the ones of the correction
            end = sentence_bounds(message.text, min(len(message.text) - 1, end + 1))[1]
        sentence = message.text[start:end]
        # the GPU rule has blanked the cards it read: its finding's place counts as the cards themselves
        read = any(start <= at[0] < end for name, at in message.found_at.items()
                   if name in ("num_gpus", "gpu_preference"))
        # the customer's own words: other rules have blanked what they read ("budget for 4 H100" is a budget)
        a, b = message.span(start, end)
        said = plain(message.original[a:b])
        cards = read or _CARDS.search(sentence) or _ONE_CARD.search(sentence) or _taken_up(message, cue)
        if cards and not _REPLACED.search(said) and not _NOT_CARDS_HAD.search(said):
            yield Found("gpus_owned", True, cue.start(), cue.end(), claim=False)
            return


GPUS_OWNED = Rule(
    "gpus-owned", ("gpus_owned",), find_gpus_owned,
    examples=(("We already own 2 A100 80GB PCIe in a server. Can they serve Qwen2.5 32B?", {"gpus_owned": True}),
              ("Nous avons déjà 4 L40S : est-ce suffisant pour Mistral Small ?", {"gpus_owned": True}),
              ("We want to buy 2 H100 for Llama 3.1 70B.", {}),
              ("On veut remplacer nos 4 vieilles V100 par des L40S.", {}),
              ("We plan 4 L40S.", {}), ("We have a budget of €350,000 and are thinking 16 H200s.", {}),
              ("We have an 8x H200 box in mind.", {}), ("we have 6 lines so 6 GPUs", {}),
              ("On a déjà un serveur avec 2 L40S, mais on veut savoir s'il faut passer à 4.", {"gpus_owned": True}),
              ("On a un PC avec une RTX 4090. C'est suffisant ?", {"gpus_owned": True}),
              ("I have a desktop with an RTX 5090, is that enough?", {"gpus_owned": True}),
              ("On a un budget avec une marge de 10 %.", {}),
              ("On voudrait fine-tuner Llama 3.1 8B en LoRA sur notre station avec une RTX 4090. Ça passe ?",
               {"gpus_owned": True}),
              ("Our server with 2 L40S: can it serve Qwen3 8B?", {"gpus_owned": True}),
              ("We'd like a new workstation with an RTX 5090.", {}),
              # ("On a une RTX 5090 dans une tour" needs the GPU rule's finding: test_understanding_precision.py)
              ("Si on a une H100 dans le cloud, ça suffit ?", {}),
              ("On voudrait un PC avec une RTX 5090.", {}),
              ("On a déjà 4 RTX A6000... euh non, 4 RTX 6000 Ada. Est-ce que ça suffit ?", {"gpus_owned": True}),
              # (a card taken up by a pronoun needs the GPU rule's finding: tests/agent/test_parsing.py)
              ("Need to pretrain a 1.3B model. 64 H100 available in our cluster (8 nodes).", {"gpus_owned": True}),
              ("Notre cluster dispose de 32 H100 : combien de temps pour l'entraînement ?", {"gpus_owned": True}),
              ("We have access to 16 A100 on the university HPC.", {"gpus_owned": True}),
              ("H100 are available on AWS next month, we'd rent 8.", {}),
              ("Would 2 L40S do? We already have one idea: a 2U server.", {}),
              ("Can one H100 run it? We already have a quote for it.", {}),
              ("We want 2 H100. We already have it approved by finance.", {}),
              # a possessive before a card is a card owned, unless it is replaced, to come, or someone else's
              ("QLoRA de Qwen3 8B sur ma RTX 4090 à la maison", {"gpus_owned": True}),
              ("Can I fine-tune Phi-4 on my RTX 4090?", {"gpus_owned": True}),
              ("Ça tourne avec notre A6000 ?", {"gpus_owned": True}),
              ("On veut remplacer notre A6000 par une RTX PRO 6000.", {}),
              ("our new RTX 5090 should arrive next month", {}),
              ("my colleague's team has our A100 booked", {})),
    doc="the GPUs named are already the customer's: the recommendation checks them first",
)
