"""u85_check.py's TokenStream prints each generated token as the simulator
prints its record, not when the run ends: a stand-in for QEMU prints two
TOKEN records half a second apart through simulate.run."""

from __future__ import annotations

import sys
import textwrap
from typing import List

from tiny_lm import encode
from u85_check import TokenStream

from ethosu_sdk.runner import simulate

PAUSE_S = 0.5


def record(call: int, token: int, next_token: int) -> str:
    return (
        f"ESDK TOKEN call={call} token={token} argmax={next_token} next={next_token} npu_cycles=1 npu_jobs=1 "
        "ticks=10 ticks_per_second=1000000000 kv_written=256 kv_cache=32512"
    )


def test_tokens_are_written_as_their_records_arrive() -> None:
    prompt = encode("Hi")
    t, i, x = encode("Hix")
    script = textwrap.dedent(f"""
        import sys, time
        print({record(0, t, i)!r}, flush=True)
        print("ESDK OUTPUT noise", flush=True)
        print({record(1, i, x)!r}, flush=True)
        time.sleep({PAUSE_S})
        print({record(2, x, t)!r}, flush=True)
    """)
    written: List[str] = []
    stream = TokenStream(prompt, write=written.append)
    status, _ = simulate.run([sys.executable, "-c", script], 30, echo=stream)
    assert status == 0
    assert written == ["streaming: 'Hi' + ", "x", "H"]
    assert len(stream.arrivals) == 2
    assert stream.arrivals[1] - stream.arrivals[0] >= PAUSE_S * 0.9


def test_malformed_token_records_are_one_check_error() -> None:
    """Fuzz: mutated TOKEN records parse or raise CheckError, nothing else."""
    import random

    from u85_check import CheckError, parse_token

    rng = random.Random(0)
    good = record(3, 1, 2)[len("ESDK TOKEN ") :]
    alphabet = "=0123456789- abcxyz_\t"
    for _ in range(3000):
        chars = list(good)
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(chars) + 1)
            op = rng.randrange(3)
            if op == 0 and chars:
                del chars[min(at, len(chars) - 1)]
            elif op == 1:
                chars.insert(at, rng.choice(alphabet))
            elif chars:
                chars[min(at, len(chars) - 1)] = rng.choice(alphabet)
        try:
            parse_token("".join(chars))
        except CheckError:
            pass
