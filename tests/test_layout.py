"""The state layout (ccsim.kernel.layout): generated from one table, no overlaps, regions by R8."""
import itertools

import numpy as np
import pytest

from ccsim.kernel import layout as L
from ccsim.kernel import rules as R
from ccsim.kernel.engine.dispatch import observation_views

PREFIX = {"pub": "PUB_", "priv": "PR_", "hid": "H_", "setup": "S_"}
BASE = {"pub": L.PUB, "priv": 0, "hid": L.HID, "setup": 0}


def test_regions_follow_each_other_without_gaps_or_overlaps():
    end = 0
    for name, start, size in L.REGIONS:
        assert start >= end, f"{name} overlaps the region before it"
        assert start - end <= 1, f"a gap before {name}"  # (mem starts on an even index)
        end = start + size
    assert L.LOG == end and L.BASE_SIZE == L.LOG
    assert L.PRIV == L.PUB + L.PUB_SIZE and L.HID == L.PRIV + 2 * L.PRIV_SIZE and L.MEM % 2 == 0


@pytest.mark.parametrize("region", list(PREFIX))
def test_fields_tile_their_region_in_table_order(region):
    fields = [f for f in L.FIELDS if f.region == region]
    o = BASE[region]
    for f in fields:
        assert getattr(L, PREFIX[region] + f.name) == o, f.name
        assert L.offset(region, f.name) == o
        o += int(np.prod(f.shape))
    size = {"pub": L.PUB_SIZE, "priv": L.PRIV_SIZE, "hid": L.HID_SIZE, "setup": L.SETUP_SIZE}[region]
    assert o - BASE[region] == size


def test_every_slot_of_the_state_has_exactly_one_owner():
    owner = np.full(L.BASE_SIZE, -1)
    for k, f in enumerate(L.FIELDS):
        size = int(np.prod(f.shape))
        o = L.offset(f.region, f.name)
        starts = {"pub": [o], "hid": [o], "priv": [L.PRIV + p * L.PRIV_SIZE + o for p in range(2)],
                  "setup": [L.SETUP + o]}[f.region]
        for s in starts:
            assert (owner[s:s + size] == -1).all(), f"{f.region}.{f.name} overlaps another slot"
            owner[s:s + size] = k
    tail = owner[L.OPTS:]
    assert (tail == -1).all() and (owner[:L.OPTS] >= 0).all(), "only opts and mem are not table slots"


def test_names_are_unique_and_meanings_given():
    for region in PREFIX:
        names = [f.name for f in L.FIELDS if f.region == region]
        assert len(names) == len(set(names))
    assert all(f.meaning or f.region == "setup" for f in L.FIELDS)


HELPERS = [  # (helper, region, field, relative base)
    (L.fu_at, "pub", "FU"), (L.fdn_at, "pub", "FDN"), (L.siden_at, "pub", "SIDEN"), (L.won_at, "pub", "WON"),
    (L.disc_at, "pub", "DISC"), (L.played_at, "pub", "NPLAYED"), (L.vetoed_at, "pub", "NVETOED"),
    (L.fd_at, "priv", "FD"), (L.ideck_at, "hid", "IDECK"), (L.s_ideck_at, "setup", "IDECK"),
    (L.s_adeck_at, "setup", "ADECK"), (L.s_placement_at, "setup", "PLACEMENT"),
]


@pytest.mark.parametrize("helper, region, name", HELPERS, ids=[h[0].__name__ for h in HELPERS])
def test_index_helpers_are_the_tables_row_major_indices(helper, region, name):
    f = next(f for f in L.FIELDS if f.region == region and f.name == name)
    fn = helper.py_func if hasattr(helper, "py_func") else helper
    base = L.offset(region, name)
    for idx in itertools.product(*(range(d) for d in f.shape)):
        assert fn(*idx) == base + np.ravel_multi_index(idx, f.shape), (name, idx)


def test_private_and_memory_bases():
    for p in range(2):
        assert L.priv_at.py_func(p) == L.PRIV + p * L.PRIV_SIZE
        assert L.mem_at.py_func(p) == L.MEM + p * L.MEM_SIZE


# R8: which slot belongs to which information set.  Public (R8.1): the table, the
# piles, patricians, sizes, what the events announced, the rules and the pending
# decision; private (R8.2): her hand, face-down cards, bonus, action-deck order and
# what her spy showed her (R8.3); hidden from both: deck orders and bookkeeping.
R8_PUBLIC = {"FU", "FDN", "SIDEN", "DISC", "WON", "REMAIN", "HANDN", "IDECKN", "ADECKN", "VOC_DISC", "VOC_BOX",
             "VOC_DECKN", "NPLAYED", "NVETOED", "RULES", "ACTION_COUNT", "TURN", "CUR", "OUT", "END", "QUIET", "MODE", "NPLACED",
             "PLACED_UP", "ACTION", "DEC_KIND", "DEC_P",
             # where the game stands, from the announced events: the pending decision, whose turn
             # is next, the action card being resolved, this turn's draws and discards (R8.1)
             "PHASE", "RESUME", "DEC_N", "NEXT", "IN_TURN", "PLACE_P", "ACT_P", "ACT_CARD", "ACT_G", "ACT_X",
             "DRAWN", "DISC_CNT", "QUIET_TURN"}
R8_PRIVATE = {"HAND", "FD", "BONUS", "ADECK", "ADECK_TOP", "ADECK_LEN", "SPY_SEEN", "SPY_TURN", "SPY_KNOWN",
              # her castling in progress: the values of her own cards (R7.3)
              "CASTLE_C", "CASTLE_A", "CASTLE_M", "CASTLE_LEFT", "CASTLE_TOTAL", "SPLIT1", "SPLIT2"}
R8_HIDDEN = {"IDECK", "VOC", "BONUS", "SID"}  # both influence decks, the VoC deck, both bonus cards (R8.2)


def test_regions_follow_the_information_sets_of_R8():
    names = {r: {f.name for f in L.FIELDS if f.region == r} for r in PREFIX}
    assert R8_PUBLIC <= names["pub"]
    assert R8_PRIVATE <= names["priv"]
    assert R8_HIDDEN <= names["hid"]
    assert not (names["pub"] & (R8_PRIVATE | R8_HIDDEN)), "a private or hidden slot in pub"
    # the only pub slots beyond the list are the announced decision context (R7.0, R8.1)
    assert names["pub"] - R8_PUBLIC == {"CTX_CARD", "CTX_G1", "CTX_G2", "CTX_A", "CTX_B", "CTX_LEFT"}


def test_a_strategy_sees_pub_and_her_own_block_only():
    st = np.arange(L.BASE_SIZE, dtype=np.int32)
    for p in range(2):
        opts, pub, own, mem = observation_views(st, p, 7)
        seen = set(opts.tolist()) | set(pub.tolist()) | set(own.tolist()) | set(mem.tolist())
        other = L.PRIV + (1 - p) * L.PRIV_SIZE
        assert seen.isdisjoint(range(other, other + L.PRIV_SIZE))  # her opponent's private block
        assert seen.isdisjoint(range(L.HID, L.HID + L.HID_SIZE))   # hidden from both
        assert seen.isdisjoint(range(L.SETUP, L.SETUP + L.SETUP_SIZE))  # the deal
        assert pub.size == L.PUB_SIZE and own[0] == L.PRIV + p * L.PRIV_SIZE


@pytest.mark.parametrize("fields, prefix", [(L.PUB_FIELDS, "PUB_"), (L.PRIV_FIELDS, "PR_")])
def test_strategies_readme_lists_every_observed_slot_in_order(fields, prefix):
    """The plug-in contract's tables of `pub` and `own` are the layout table, slot for slot."""
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "strategies" / "README.md").read_text()
    listed = re.findall(rf"^\| `{prefix}([A-Z0-9_]+)` \|", text, flags=re.M)
    assert listed == [f[0] for f in fields]


def test_seat_and_group_masks_keep_every_valid_value():
    """seat_of and group_of only tell LLVM the range: every player and every group maps to itself."""
    assert [L.seat_of.py_func(p) for p in range(2)] == [0, 1]
    assert [L.group_of.py_func(g) for g in range(R.N_GROUPS)] == list(range(R.N_GROUPS))
