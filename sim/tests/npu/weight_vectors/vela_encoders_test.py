"""The bindings to Vela's encoders: every SWD stream decodes back in Vela's
own decoder, and the regor bindings see the encoder's result correctly."""

from __future__ import annotations

import numpy as np
import vela_encoders

# FWD header: 256 bits before the weights.
FWD_HEADER_BYTES = 32


def test_swd_encoders_round_trip_in_velas_decoder() -> None:
    weights = [0, 0, 3, -4, 255, -255, 17, 0, 0, 0, -1] * 50
    for encode in (vela_encoders.swd_python, vela_encoders.swd_regor):
        assert vela_encoders.swd_decode(encode(weights)) == weights


def test_fwd_raw_stream_holds_a_byte_per_weight() -> None:
    weights = [int(v) for v in np.random.default_rng(1).integers(-128, 128, size=256)]
    stream = vela_encoders.fwd_regor(weights)
    assert len(stream) >= FWD_HEADER_BYTES + len(weights)


def test_u55_reorder_encode_pads_to_microblocks() -> None:
    ohwi = np.ones((8, 1, 1, 8), dtype=np.int64)
    stream = vela_encoders.u55_reorder_encode(ohwi, 8, False, False, (1, 1), 8, 8)
    # Depth-first: the 8 IFM channels are padded with zeros to a 32-deep
    # IFM block, for each of the 8 OFM channels.
    decoded = vela_encoders.swd_decode(stream)
    assert len(decoded) == 8 * 32
    assert sorted(decoded) == [0] * (8 * 24) + [1] * 64
