"""The strategy registry: names to integer ids, and the compiled dispatch.

Adding a strategy is one new file or folder under ``strategies/`` (or in a folder of
``CCSIM_STRATEGY_PATH``) that declares its family (``strategies.family``: the short form ``NAME``,
``ID``, ``FAMILY``, ``DESCRIPTION`` and ``CHOOSE``, or ``FAMILIES``): the registry finds it in the
package and its wings (``heuristics``, ``learned``, ``neural``, ``search``); neither it nor the
engine changes, and it imports no family by name.

Every strategy has the signature
``choose(params, kind, opts, n, pub, own, mem, me, rng) -> index`` and sees
only its player's observation (``pub``, ``own``: views of the state's public
block and her private block), its own memory, its seat's parameters and its
own random stream (``rng[0]``).  See strategies/README.md.

How the engine reaches a strategy: each strategy is compiled on its own, on
first use, into a C-callable *entry* (a numba ``cfunc``, cached on disk), and
``resolve`` stores the entry's address in the last slot of the seat's
parameter vector (``P_ENTRY``).  The engine's ``ccsim.kernel.engine.dispatch.choose_nb``
calls through that address; the engine imports no strategy.
So the engine is compiled once whatever the strategies, and a run compiles
only the strategies it plays: a cold ``ccsim run`` no longer compiles all of
them into every kernel.  (Passing the functions to the kernel as arguments
would miss numba's disk cache in every new process; DESIGN lesson 6.)

A *data-only* strategy is a TOML file in ``strategies/params/`` (strategies.param_files) of a
family that reads files (``Family.files``): weights for the ``weighted`` family (registered as
``weighted-<stem>``), a heuristic *style* (weights and switches of the one heuristic policy, with
its own id: ``<stem>``), or the search parameters of an ``expert`` (``<stem>``); ``resolve``
accepts the path of any such file.
"""
import importlib
import pkgutil
from dataclasses import replace
import types as pytypes
from pathlib import Path

import numba
import numpy as np
from ccsim.toolchain.cache import cache_dir_for, cfunc_on_disk
from ccsim.toolchain.entry import compile_entry
from ccsim.toolchain.notice import compiling, strategy_seconds
from ccsim.toolchain.jit import pointer_array, whole_program

from ccsim.kernel.layout import PUB, PUB_SIZE, PRIV_SIZE, OPTS, MEM_SIZE, MAX_PARAMS, P_ENTRY, N_RNG, priv_at, mem_at, seat_of
from ccsim.kernel.engine.dispatch import ENTRY_SIG, RANDOM as _RANDOM_ID, interpret
from strategies import param_files
from strategies.family import Family, Player, families_of

PLUGIN_PATH_ENV = "CCSIM_STRATEGY_PATH"  # folders of plug-in strategy files (strategies/__init__.py)
PARAMS_DIR = param_files.PARAMS_DIR
ParamFileError = param_files.ParamFileError


def _declared_families() -> list:
    """Every family declared in the ``strategies`` package: its modules, its wings' (sub-packages)
    and the folders of ``CCSIM_STRATEGY_PATH`` (strategies.family.families_of)."""
    import strategies
    found = []
    for info in pkgutil.walk_packages(strategies.__path__, "strategies."):
        if info.name != __name__:
            found += families_of(importlib.import_module(info.name))
    return found


def _by_needs(families: list) -> list:
    """The families in an order where each comes after the families it needs (``Family.needs``)."""
    done, order, left = set(), [], list(families)
    while left:
        ready = [f for f in left if all(n in done or n not in {g.name for g in left} for n in f.needs)]
        if not ready:
            raise ImportError(f"strategy families that need each other: {', '.join(f.name for f in left)}")
        order += ready
        left = [f for f in left if f not in ready]
        done |= {f.name for f in ready} - {f.name for f in left}
    return order


class Socket:
    """What a family's parameters may ask of the registry while it is built: the players
    registered so far (``lookup``) and whether an id is a search player's."""

    def __init__(self):
        self.players: list[tuple[Player, Family]] = []

    def lookup(self, name):
        return lookup(name, self.players)

    def searches(self, sid: int) -> bool:
        return any(f.searches for p, f in self.players if p.id == sid)

    def add(self, player: Player, family: Family) -> None:
        if callable(player.params):
            player = replace(player, params=player.params(self))
        self.players.append((player, family))


def _file_players(family: Family, socket: Socket, known: tuple) -> list:
    """The players of the parameter files of strategies/params that are ``family``'s, by file name."""
    if family.file_player is None:
        return []
    found = []
    for f in sorted(PARAMS_DIR.glob("*.toml")):
        data = param_files.read_toml(f)
        if param_files.family_of(f, data, known) == family.files:
            params = family.load(f, data, socket)
            found.append(family.file_player(f, data, params))
    return found


def _refuse_shared(key: str, players: list) -> None:
    """Two strategies (modules or style files) with one id or one name: refused at import."""
    seen = {}
    for p in players:
        other = seen.setdefault(getattr(p, key.lower()), p)
        if other is not p:
            raise ImportError(f"strategies {other.path or other.name} and {p.path or p.name} share the {key} "
                              f"{getattr(p, key.lower())!r}")


def _registered(families: list) -> tuple:
    """(player, family) in the order of ``available()``: the players that do not search by id,
    then the named parameter sets of their families (a family's id with other parameters:
    ``weighted-<stem>``), then the search players likewise (their parameter files follow).
    Refused: two players with one name, or two with one id that are not a named set."""
    known = tuple(dict.fromkeys(f.files for f in families if f.files))
    socket = Socket()
    for family in _by_needs(families):
        for player in family.players:
            socket.add(player, family)
        for player in _file_players(family, socket, known):
            socket.add(player, family)
    own = {p.id for p, f in socket.players if p.path is None}
    named_set = [p.path is not None and p.id in own for p, _ in socket.players]
    _refuse_shared("NAME", [p for p, _ in socket.players])
    _refuse_shared("ID", [p for (p, _), shared in zip(socket.players, named_set) if not shared])
    order = sorted(range(len(socket.players)),
                   key=lambda i: (socket.players[i][1].searches, named_set[i], socket.players[i][0].id))
    return tuple(socket.players[i] for i in order)


RANDOM = _RANDOM_ID  # the engine plays it inline (ccsim.kernel.engine.dispatch)


def load_params(path) -> tuple[np.ndarray, dict]:
    """(parameter vector of MAX_PARAMS floats, the file's table) of a parameter file of any family
    that reads files (strategies.param_files)."""
    path = Path(path)
    data = param_files.read_toml(path)
    family = _FILE_FAMILIES[param_files.family_of(path, data, tuple(_FILE_FAMILIES))]
    vector = family.load(path, data, _SOCKET)
    params = np.zeros(MAX_PARAMS, np.float64)
    params[:len(vector)] = vector
    return params, data


def _entry_template(st_p, n_st, rng_p, params_p, me, kind, n):
    # `choose` is bound per strategy by _compile_entry: a global, called directly
    # (numba caches neither closures nor code that holds a function as a value).
    # observation_views' slices, made here: the entry runs without NRT.
    me = seat_of(me)  # (numba's negative-index fix-up dropped from every slot of hers)
    st = pointer_array(st_p, n_st)
    own = priv_at(me)
    mem = mem_at(me)
    return choose(pointer_array(params_p, MAX_PARAMS), kind, st[OPTS:OPTS + n], n,  # noqa: F821
                  st[PUB:PUB + PUB_SIZE], st[own:own + PRIV_SIZE], st[mem:mem + MEM_SIZE], me,
                  pointer_array(rng_p, N_RNG)[1 + me:2 + me])


def _seer_template(st_p, n_st, rng_p, params_p, me, kind, n):
    # a strategy that sees all (strategies.search.seer, a measuring device): the whole state in place of
    # the private block
    me = seat_of(me)
    st = pointer_array(st_p, n_st)
    mem = mem_at(me)
    return choose(pointer_array(params_p, MAX_PARAMS), kind, st[OPTS:OPTS + n], n,  # noqa: F821
                  st[PUB:PUB + PUB_SIZE], st, st[mem:mem + MEM_SIZE], me, pointer_array(rng_p, N_RNG)[1 + me:2 + me])


_ENTRY_ADDRESS: dict[int, int] = {}


def _compile_entry(sid: int) -> int:
    """The address of strategy ``sid``'s entry, compiled (or loaded from the cache) once per process."""
    if sid not in _ENTRY_ADDRESS:
        name = f"entry_{sid}"
        player = _BY_ID[sid]
        template = _seer_template if player.sees_all else _entry_template
        fn = pytypes.FunctionType(template.__code__, dict(globals(), choose=player.choose), name)
        fn.__qualname__ = name  # one cache file per strategy
        with whole_program(name), cache_dir_for(__name__), compiling(*_entry_notice(sid, name)):
            _ENTRY_ADDRESS[sid] = compile_entry(ENTRY_SIG, fn)
    return _ENTRY_ADDRESS[sid]


def _entry_notice(sid: int, name: str):
    """(what, seconds, cold) for ``ccsim.toolchain.notice.compiling``: cold unless numba's cache holds
    an index for the entry (its files are ``registry.entry_<sid>-<line>.py<ver>.nbi``)."""
    family = _BY_ID[sid].name
    return family, strategy_seconds(family), not cfunc_on_disk(__name__, name)


def entry_slot(sid: int) -> float:
    """The ``P_ENTRY`` value for strategy ``sid`` in this process: its entry's
    address, bit for bit (0 for `random`, which the kernel plays inline, and
    when numba's JIT is disabled: the interpreted dispatch is handed the function instead)."""
    if sid == RANDOM:
        return 0.0
    if numba.config.DISABLE_JIT:
        interpret(sid, _interpreted(_BY_ID[sid]))
        return 0.0
    return float(np.int64(_compile_entry(sid)).view(np.float64))


def _interpreted(player: Player):
    """The plain-Python choice function of ``player`` for the interpreted dispatch (NUMBA_DISABLE_JIT=1):
    a player that sees all is handed the whole state (the private block's view's base)."""
    if not player.sees_all:
        return player.choose
    f = player.choose
    return lambda params, kind, opts, n, pub, own, mem, me, rng: f(params, kind, opts, n, pub, own.base, mem, me, rng)


def available() -> list[dict]:
    """Every registered strategy: name, id, family and one-line description."""
    return [{"name": p.name, "id": p.id, "family": f.name, "description": p.description} for p, f in _ENTRIES]


def search_players() -> set[str]:
    """Names of the registered search players (``expert`` and its parameter files): a few games a second."""
    return {p.name for p, f in _ENTRIES if f.searches}


def strategy_id(name: str) -> int:
    """The kernel id of a strategy name; KeyError lists the known names."""
    return lookup(name)[0]


def resolve(name: str):
    """(kernel id, parameter vector of MAX_PARAMS floats) for a strategy name,
    or for the path of a parameter file (``*.toml``), ready for the
    kernel: its ``P_ENTRY`` slot holds the strategy's compiled entry in this
    process (compiled or loaded from numba's cache here, on first use).

    KeyError (with a one-line message listing the known names) if unknown.
    """
    sid, params = lookup(name)
    return sid, localized(sid, params)


def localized(sid: int, params: np.ndarray) -> np.ndarray:
    """``params`` (strategy ``sid``'s vector, resolved anywhere) with the entry addresses of *this*
    process in it: its own (``P_ENTRY``) and those of the players its family calls (``Family.calls``:
    a search player's rollout policy and opponent model)."""
    params = params.copy()
    params[P_ENTRY] = entry_slot(sid)
    family = _FAMILY_OF_ID.get(sid)
    if family is not None and family.calls is not None:
        for slot, callee in family.calls(params):
            params[slot] = entry_slot(callee)
    return params


def weights_file(name: str) -> Path:
    """The file of trained weights strategy ``name`` plays with (``ccsim train --install`` replaces
    it); KeyError if unknown or it has none."""
    for p, f in _ENTRIES:
        if p.name == name and f.weights is not None:
            return Path(f.weights)
    raise KeyError(f"strategy {name!r} has no file of trained weights")


def player_key(name) -> tuple[int, bytes]:
    """What makes a player: its kernel id and parameter vector (before the entry slots are
    filled in), so two names with one key, such as `weighted` and its `balanced` file, are
    the same player twice (KeyError if unknown)."""
    sid, params = lookup(name)
    return sid, params.tobytes()


def lookup(name, players=None):
    """(kernel id, parameter vector before the entry slots are filled in) of a strategy name or the
    path of a parameter file; KeyError (one line, the known names) if unknown."""
    players = _ENTRIES if players is None else players
    for p, _ in players:
        if p.name == name:
            params = np.zeros(MAX_PARAMS, np.float64)
            if p.params is not None:
                params[:len(p.params)] = p.params
            return p.id, params
    if isinstance(name, (str, Path)) and str(name).endswith(".toml"):
        if not Path(name).is_file():
            raise KeyError(f"parameter file {name!r} not found")
        try:
            params, data = load_params(name)
        except ParamFileError as e:
            raise KeyError(str(e)) from None
        family = _FILE_FAMILIES[param_files.family_of(name, data, tuple(_FILE_FAMILIES))]
        return family.file_id, params
    known = ", ".join(p.name for p, _ in players)
    raise KeyError(f"unknown strategy {name!r} (known: {known}; or a path to a weighted .toml file)")


# the registry, read from the families' descriptors
_FAMILIES = _declared_families()
_ENTRIES = _registered(_FAMILIES)
_BY_ID = {p.id: p for p, _ in reversed(_ENTRIES)}  # the first player of an id: its own, not a named set's
_FAMILY_OF_ID = {p.id: f for p, f in reversed(_ENTRIES)}
_FILE_FAMILIES = {f.files: f for f in _FAMILIES if f.files}
_SOCKET = Socket()
_SOCKET.players = list(_ENTRIES)

# the ids other rooms ask for by their strategy's name (the learned player's training, the tests)
WEIGHTED, LEARNED, EXPERT = (strategy_id(name) for name in ("weighted", "learned", "expert"))
