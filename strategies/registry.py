"""The strategy registry: names to integer ids, and the compiled dispatch.

Adding a strategy is one new file under ``strategies/`` (or in a folder of
``CCSIM_STRATEGY_PATH``) that declares ``NAME``, ``ID``, ``FAMILY``, ``DESCRIPTION``
and ``CHOOSE``: the registry finds it; neither it nor the engine changes.

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

A *data-only* strategy is a TOML file in ``strategies/params/`` (strategies.param_files):
weights for the ``weighted`` family (registered as ``weighted-<stem>``), a heuristic *style*
(weights and switches of the one heuristic policy, with its own id: ``<stem>``), or the
search parameters of an ``expert`` (``<stem>``); ``resolve`` accepts the path of any such file.
"""
import importlib
import pkgutil
import types as pytypes
from pathlib import Path
from types import SimpleNamespace

import numba
import numpy as np
from ccsim.toolchain.cache import cache_dir_for, cfunc_on_disk
from ccsim.toolchain.entry import compile_entry
from ccsim.toolchain.notice import compiling, strategy_seconds
from ccsim.toolchain.jit import pointer_array, whole_program

from ccsim.kernel.layout import PUB, PUB_SIZE, PRIV_SIZE, OPTS, MEM_SIZE, MAX_PARAMS, P_ENTRY, N_RNG, priv_at, mem_at, seat_of
from ccsim.kernel.engine.dispatch import ENTRY_SIG, PY_STRATEGIES, RANDOM as _RANDOM_ID
from strategies import expert, learned, param_files, seer, weighted
from strategies.leaf import leaf_weights
from strategies.layouts import N_PARAMS

RANDOM = _RANDOM_ID  # the engine plays it inline (ccsim.kernel.engine.dispatch)
WEIGHTED = weighted.ID  # the families whose parameter files strategies/params holds
EXPERT = expert.ID
SEER = seer.ID
LEARNED = learned.ID
_FILE_FAMILY_ID = {"expert": EXPERT, "learned": LEARNED}  # a parameter file given by path plays this id
PLUGIN_PATH_ENV = "CCSIM_STRATEGY_PATH"  # folders of plug-in strategy files (strategies/__init__.py)

PARAMS_DIR = param_files.PARAMS_DIR
ParamFileError = param_files.ParamFileError
file_family = param_files.file_family


def expert_params(search: dict, where: str = "expert", leaf: dict | None = None) -> np.ndarray:
    """The `expert` parameter vector of a ``[search]`` table (``expert.search_settings``) and a
    ``[leaf]`` table (the leaf value's weights by feature name, ``strategies.leaf.leaf_weights``);
    ParamFileError names a bad key or value, or a rollout or opponent that is no plain player."""
    cfg = expert.search_settings(search, where)
    rollout, rollout_params = _plain_player(cfg["rollout"], where, "rollout", "the rollout policy")
    opponent = opponent_params = None
    if cfg["opponent"]:
        opponent, opponent_params = _plain_player(cfg["opponent"], where, "opponent", "the opponent model")
    network = (cfg["prior"] == "neural", cfg["leaf_value"] == "neural")
    return expert.params_of(cfg["budget"], rollout, cfg["width"], float(cfg["margin"]), cfg["kinds"], float(cfg["z"]),
                            rollout_params, cfg["depth"], leaf_weights(leaf or {}, where), opponent,
                            opponent_params, network)


def _plain_player(name, where: str, key: str, role: str):
    """(id, parameters) of the player ``name`` a search plays inside its simulations: not a search."""
    try:
        sid, params = lookup(name)
    except KeyError as e:
        raise ParamFileError(f"{where}: {key}: {e.args[0]}") from None
    if sid in (EXPERT, SEER):
        raise ParamFileError(f"{where}: {role} cannot be a search player")
    return sid, params


def load_params(path) -> tuple[np.ndarray, dict]:
    """(parameter vector of MAX_PARAMS floats, the file's table) of a parameter file
    (strategies.param_files: weighted, heuristic, expert or learned)."""
    path = Path(path)
    data = param_files.read_toml(path)
    param_files.refuse_stray_keys(path, data)
    family = param_files.family_of(path, data)
    if family == "expert":
        return expert_params(param_files.table(path, data, "search"), f"parameter file {path}",
                             param_files.table(path, data, "leaf")), data
    if family == "learned":
        try:
            return learned.model_vector(data, f"parameter file {path}"), data
        except ValueError as e:
            raise ParamFileError(str(e)) from None
    return param_files.weights_vector(path, data), data


def _file_entry(f: Path, family: str):
    """(named parameter set, id, choose function) of one parameter file: a weighted file as
    ``weighted-<stem>`` (the `weighted` id), a style (with the id it declares) or an `expert`
    file as ``<stem>``."""
    params, data = load_params(f)
    if family == "weighted":
        name, sid, fam, choose = f"weighted-{f.stem}", WEIGHTED, weighted.FAMILY, weighted.CHOOSE
    elif family == "heuristic":
        name, sid, fam, choose = f.stem, param_files.style_id(f, data), "heuristic", weighted.CHOOSE
    else:
        name, sid, fam, choose = f.stem, EXPERT, expert.FAMILY, expert.CHOOSE
    return (SimpleNamespace(NAME=name, ID=sid, FAMILY=fam, PATH=str(f), DEFAULT_PARAMS=params,
                            DESCRIPTION=data.get("description", f"{family} with {f.name}")), sid, choose)


def _file_entries(family: str) -> tuple:
    """The parameter files of strategies/params of one family, by file name."""
    return tuple(_file_entry(f, family) for f in sorted(PARAMS_DIR.glob("*.toml")) if file_family(f) == family)


def _strategy_modules() -> list:
    """Every module of the ``strategies`` package (its folder, and the folders of
    ``CCSIM_STRATEGY_PATH``) that declares a strategy: ``NAME``, ``ID``, ``FAMILY``,
    ``DESCRIPTION`` and ``CHOOSE``, its compiled choice function.  Adding a strategy is
    adding such a file; nothing here changes.  Refused: two modules with one id or name."""
    import strategies
    found = []
    for info in pkgutil.iter_modules(strategies.__path__):
        if info.name in ("registry", "features"):
            continue
        module = importlib.import_module(f"strategies.{info.name}")
        if hasattr(module, "CHOOSE"):
            found.append(module)
    _refuse_shared("NAME", found)
    return found


def _refuse_shared(key: str, found: list) -> None:
    """Two strategies (modules or style files) with one id or one name: refused at import."""
    seen = {}
    for m in found:
        other = seen.setdefault(getattr(m, key), m)
        if other is not m:
            where = lambda x: getattr(x, "PATH", None) or x.__name__  # noqa: E731
            raise ImportError(f"strategies {where(other)} and {where(m)} share the {key} {getattr(m, key)!r}")


def _registered() -> tuple:
    """(module or named parameter set, id, choose function), in the order of ``available()``:
    the strategy files by id, the weighted parameter files, then the search players (their
    parameter files follow once the table of names exists).  Named parameter sets of a
    family share its id and function: their parameters differ."""
    modules = [(m, m.ID, m.CHOOSE) for m in _strategy_modules()] + list(_file_entries("heuristic"))
    _refuse_shared("ID", [m for m, _, _ in modules])
    modules.sort(key=lambda e: e[1])
    return (tuple(e for e in modules if e[0].FAMILY != expert.FAMILY) + _file_entries("weighted")
            + tuple(e for e in modules if e[0].FAMILY == expert.FAMILY))


_ENTRIES = _registered()
_CHOOSE = {sid: fn for _, sid, fn in _ENTRIES}
assert N_PARAMS <= P_ENTRY, "the parameter vector's last slot is the strategy entry"

PY_STRATEGIES.update(_CHOOSE)  # the interpreted dispatch (NUMBA_DISABLE_JIT=1) finds them here
for _sid in [s for m, s, _ in _ENTRIES if getattr(m, "SEES_ALL", False)]:  # ... the whole state for a seer
    PY_STRATEGIES[_sid] = (lambda f: lambda params, kind, opts, n, pub, own, mem, me, rng:
                           f(params, kind, opts, n, pub, own.base, mem, me, rng))(_CHOOSE[_sid])


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
    # a strategy that SEES_ALL (strategies.seer, a measuring device): the whole state in place of
    # the private block
    me = seat_of(me)
    st = pointer_array(st_p, n_st)
    mem = mem_at(me)
    return choose(pointer_array(params_p, MAX_PARAMS), kind, st[OPTS:OPTS + n], n,  # noqa: F821
                  st[PUB:PUB + PUB_SIZE], st, st[mem:mem + MEM_SIZE], me, pointer_array(rng_p, N_RNG)[1 + me:2 + me])


_SEES_ALL = {sid for m, sid, _ in _ENTRIES if getattr(m, "SEES_ALL", False)}
_ENTRY_ADDRESS: dict[int, int] = {}


def _compile_entry(sid: int) -> int:
    """The address of strategy ``sid``'s entry, compiled (or loaded from the cache) once per process."""
    if sid not in _ENTRY_ADDRESS:
        name = f"entry_{sid}"
        template = _seer_template if sid in _SEES_ALL else _entry_template
        fn = pytypes.FunctionType(template.__code__, dict(globals(), choose=_CHOOSE[sid]), name)
        fn.__qualname__ = name  # one cache file per strategy
        with whole_program(name), cache_dir_for(__name__), compiling(*_entry_notice(sid, name)):
            _ENTRY_ADDRESS[sid] = compile_entry(ENTRY_SIG, fn)
    return _ENTRY_ADDRESS[sid]


def _entry_notice(sid: int, name: str):
    """(what, seconds, cold) for ``ccsim.toolchain.notice.compiling``: cold unless numba's cache holds
    an index for the entry (its files are ``registry.entry_<sid>-<line>.py<ver>.nbi``)."""
    family = next(m.NAME for m, s, _ in _ENTRIES if s == sid)
    return family, strategy_seconds(family), not cfunc_on_disk(__name__, name)


def entry_slot(sid: int) -> float:
    """The ``P_ENTRY`` value for strategy ``sid`` in this process: its entry's
    address, bit for bit (0 for `random`, which the kernel plays inline, and
    when numba's JIT is disabled)."""
    if sid == RANDOM or numba.config.DISABLE_JIT:
        return 0.0
    return float(np.int64(_compile_entry(sid)).view(np.float64))


def available() -> list[dict]:
    """Every registered strategy: name, id, family and one-line description."""
    return [{"name": m.NAME, "id": sid, "family": m.FAMILY, "description": m.DESCRIPTION} for m, sid, _ in _ENTRIES]


def search_players() -> set[str]:
    """Names of the registered search players (``expert`` and its parameter files): a few games a second."""
    return {m.NAME for m, _, _ in _ENTRIES if m.FAMILY == expert.FAMILY}


def strategy_id(name: str) -> int:
    """The kernel id of a strategy name; KeyError lists the known names."""
    return lookup(name)[0]


def resolve(name: str):
    """(kernel id, parameter vector of MAX_PARAMS floats) for a strategy name,
    or for the path of a `weighted` parameter file (``*.toml``), ready for the
    kernel: its ``P_ENTRY`` slot holds the strategy's compiled entry in this
    process (compiled or loaded from numba's cache here, on first use).

    KeyError (with a one-line message listing the known names) if unknown.
    """
    sid, params = lookup(name)
    return sid, localized(sid, params)


def localized(sid: int, params: np.ndarray) -> np.ndarray:
    """``params`` (strategy ``sid``'s vector, resolved anywhere) with the entry addresses of *this*
    process in it: its own (``P_ENTRY``) and, for a search player, its rollout policy's."""
    params = params.copy()
    params[P_ENTRY] = entry_slot(sid)
    if sid in (EXPERT, SEER):  # a search player calls its rollout policy's entry too, and its opponent model's
        params[expert.P_ROLLOUT_ENTRY] = entry_slot(int(params[expert.P_ROLLOUT]))
        if params[expert.P_OPPONENT] > 0:
            params[expert.P_OPPONENT_ENTRY] = entry_slot(int(params[expert.P_OPPONENT]) - 1)
    return params


def player_key(name) -> tuple[int, bytes]:
    """What makes a player: its kernel id and parameter vector (before the entry slots are
    filled in), so two names with one key, such as `weighted` and its `balanced` file, are
    the same player twice (KeyError if unknown)."""
    sid, params = lookup(name)
    return sid, params.tobytes()


def lookup(name):
    for m, sid, _ in _ENTRIES:
        if m.NAME == name:
            params = np.zeros(MAX_PARAMS, np.float64)
            default = getattr(m, "DEFAULT_PARAMS", None)
            if default is not None:
                params[:len(default)] = default
            return sid, params
    if isinstance(name, (str, Path)) and str(name).endswith(".toml"):
        if not Path(name).is_file():
            raise KeyError(f"parameter file {name!r} not found")
        try:
            params, data = load_params(name)
        except ParamFileError as e:
            raise KeyError(str(e)) from None
        return _FILE_FAMILY_ID.get(data.get("family"), WEIGHTED), params
    known = ", ".join(m.NAME for m, _, _ in _ENTRIES)
    raise KeyError(f"unknown strategy {name!r} (known: {known}; or a path to a weighted .toml file)")


# the search players' parameters name their rollout policy: they need the table above
expert.DEFAULT_PARAMS = expert_params({})
seer.DEFAULT_PARAMS = expert.DEFAULT_PARAMS.copy()
seer.DEFAULT_PARAMS[expert.P_SEER] = 1.0
_ENTRIES = _ENTRIES + _file_entries("expert")
