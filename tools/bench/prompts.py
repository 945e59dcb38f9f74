"""Random prompts of an exact token length, counted by the server's own tokenizer when it has one.

Prompts are random words from a fixed pool (so they make no sense and share no prefix between levels).
With the server's `POST /tokenize` (vLLM and llama.cpp both expose it) the pool is first reduced to words
that cost exactly one token, so a prompt of N tokens is (N − overhead) words, checked with one more call
and adjusted if the tokenizer merged across words. Without that endpoint the length is estimated from the
words (≈ 1.3 tokens per word) and the result says so.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

import httpx

from sizer_agent.tools.bench.results import TokenLength
from sizer_agent.tools.errors import InputError

# A pool of common English words; each is usually one or two tokens for BPE tokenizers. 64 words are enough
# randomness (64^N prompts) and keep the one-off /tokenize calibration short.
_WORDS = [
    "time", "person", "year", "way", "day", "thing", "man", "world", "life", "hand", "part", "child", "eye",
    "woman", "place", "work", "week", "case", "point", "number", "group", "problem", "fact", "water",
    "room", "mother", "area", "money", "story", "month", "lot", "right", "study", "book", "job", "word",
    "business", "issue", "side", "kind", "head", "house", "service", "friend", "father", "power", "hour",
    "game", "line", "end", "member", "law", "car", "city", "name", "team", "minute", "idea", "kid", "body",
    "back", "parent", "face", "others"
]

# Short words and letters: most tokenizers have them as one token even when the nouns above are split.
_SHORT = [
    "the", "of", "and", "to", "in", "is", "it", "on", "at", "by", "for", "with", "as", "be", "or", "over",
    "dog", "fox", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"
]

_FALLBACK_TOKENS_PER_WORD = 1.3  # typical BPE ratio for common English words; only used without /tokenize


def parse_length(text: str, field: str) -> TokenLength:
    """`512` (fixed) or `256:1024` (uniform integers in the closed range)."""
    try:
        if ":" in text:
            low_text, high_text = text.split(":", 1)
            low, high = int(low_text), int(high_text)
        else:
            low = high = int(text)
    except ValueError:
        raise InputError(field, f"not a token length: {text!r}", "N or LOW:HIGH, positive integers") from None
    if low < 1 or high < low:
        raise InputError(field, f"bad range {text!r}", "N >= 1, or LOW:HIGH with 1 <= LOW <= HIGH")
    return TokenLength(low=low, high=high)


def draw_length(length: TokenLength, rng: random.Random) -> int:
    return length.low if length.fixed else rng.randint(length.low, length.high)


@dataclass(slots=True)
class Prompt:
    text: str
    tokens: int  # planned length: exact when `exact`, an estimate otherwise
    exact: bool
    output_tokens: int


class Tokenizer:
    """Counts tokens with the server's `/tokenize`; `available` is False when the server has none."""

    def __init__(self, client: httpx.AsyncClient, base_url: str, model: str | None) -> None:
        self._client = client
        self._url = base_url.rstrip("/") + "/tokenize"
        self._model = model
        self.available: bool | None = None

    async def count(self, text: str) -> int | None:
        if self.available is False:
            return None
        # vLLM reads `prompt` (and `model`), llama.cpp reads `content`; each ignores the other's keys.
        body: dict[str, object] = {"prompt": text, "content": text}
        if self._model:
            body["model"] = self._model
        try:
            response = await self._client.post(self._url, json=body)
        except httpx.HTTPError:
            self.available = False
            return None
        if response.status_code != 200:
            self.available = False
            return None
        data = response.json()
        count = data.get("count")
        if count is None and isinstance(data.get("tokens"), list):
            count = len(data["tokens"])
        self.available = count is not None
        return int(count) if count is not None else None


async def single_token_words(tokenizer: Tokenizer, parallel: int = 16) -> tuple[list[str], int] | None:
    """Pool words that cost exactly one token after a space, and the fixed overhead (BOS...) of a prompt.

    Measured, not assumed: count("w w w w") − count("w w") == 2 means each extra " w" is one token here.
    """
    semaphore = asyncio.Semaphore(parallel)

    async def cost(word: str) -> tuple[str, int | None, int | None]:
        async with semaphore:
            two = await tokenizer.count(f"{word} {word}")
            four = await tokenizer.count(f"{word} {word} {word} {word}")
        return word, two, four

    # A few dozen candidates: enough single-token words for any real tokenizer, and few /tokenize calls.
    candidates = list(dict.fromkeys(_SHORT + _WORDS[:32]))
    first = await cost(candidates[0])
    if first[1] is None:
        return None
    results = [first, *await asyncio.gather(*(cost(word) for word in candidates[1:]))]
    single = [word for word, two, four in results if two is not None and four is not None and four - two == 2]
    if not single:
        return None
    word = single[0]
    two = next(t for w, t, _ in results if w == word)
    assert two is not None
    return single, two - 2


async def make_prompt(
    tokenizer: Tokenizer,
    target: int,
    output_tokens: int,
    rng: random.Random,
    vocabulary: tuple[list[str], int] | None,
    max_rounds: int = 8,
) -> Prompt:
    """Random words adjusted until the server counts exactly `target` tokens (or estimated without it)."""
    if vocabulary is None:
        words = [rng.choice(_WORDS) for _ in range(max(1, round(target / _FALLBACK_TOKENS_PER_WORD)))]
        return Prompt(" ".join(words), target, False, output_tokens)
    pool, overhead = vocabulary
    words = [rng.choice(pool) for _ in range(max(1, target - overhead))]
    count = await tokenizer.count(" ".join(words))
    for _ in range(max_rounds):
        if count is None or count == target:
            break
        if count > target:
            words = words[: max(1, len(words) - (count - target))]
        else:
            words.extend(rng.choice(pool) for _ in range(target - count))
        count = await tokenizer.count(" ".join(words))
    exact = count == target
    return Prompt(" ".join(words), count if count is not None else target, exact, output_tokens)


async def make_prompts(
    client: httpx.AsyncClient,
    base_url: str,
    model: str | None,
    count: int,
    input_len: TokenLength,
    output_len: TokenLength,
    seed: int,
    parallel: int = 16,
    vocabulary_cache: dict[str, tuple[list[str], int] | None] | None = None,
) -> tuple[list[Prompt], bool]:
    """`count` prompts; also returns whether the server's tokenizer was used.

    `vocabulary_cache` (a dict kept by the caller) saves re-measuring the word pool for every level.
    """
    tokenizer = Tokenizer(client, base_url, model)
    rng = random.Random(seed)
    plans = [(draw_length(input_len, rng), draw_length(output_len, rng), rng.randrange(2**32)) for _ in range(count)]
    if not plans:
        return [], False
    if vocabulary_cache is not None and "words" in vocabulary_cache:
        vocabulary = vocabulary_cache["words"]
    else:
        vocabulary = await single_token_words(tokenizer, parallel)
        if vocabulary_cache is not None:
            vocabulary_cache["words"] = vocabulary
    semaphore = asyncio.Semaphore(parallel)

    async def one(target: int, out: int, prompt_seed: int) -> Prompt:
        async with semaphore:
            return await make_prompt(tokenizer, target, out, random.Random(prompt_seed), vocabulary)

    prompts = await asyncio.gather(*(one(*plan) for plan in plans))
    return list(prompts), vocabulary is not None
