"""The descriptor a family of strategies declares: what the registry reads, and nothing else.

A family module either declares one player with five constants (the short form, the one
strategies/README.md teaches: ``NAME``, ``ID``, ``FAMILY``, ``DESCRIPTION``, ``CHOOSE``, and if it
likes ``DEFAULT_PARAMS``, ``SEES_ALL`` and ``WEIGHTS_FILE``) or a tuple ``FAMILIES`` of ``Family`` descriptors, for a
family with parameter files or with players that call other families' players.  The registry
(strategies.registry) finds both forms in the ``strategies`` package, its wings and the folders of
``CCSIM_STRATEGY_PATH``; it imports no family by name.
"""
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Player:
    """One registered strategy: a name, a kernel id, a choice function and its parameters.

    ``params`` is a parameter vector, or a function of the registry's ``Socket`` that makes one
    (a player whose parameters name other families' players: the search's rollout policy)."""
    name: str
    id: int
    description: str
    choose: Callable
    params: object = None
    sees_all: bool = False  # its entry hands it the whole state in place of its private block
    path: str | None = None  # the parameter file it was read from


@dataclass(frozen=True)
class Family:
    """A family of players (the ``family`` column of ``ccsim strategies``).

    ``files``: the ``family = "<files>"`` of the parameter files it reads; ``load(path, data,
    socket)`` their parameter vector (raises ``ParamFileError``, a stray key included); ``file_player(path, data, params)`` the player a file of
    ``strategies/params`` registers (None: its files are used by path only); ``file_id`` the
    kernel id a file given by path plays.  ``needs``: the families whose players its parameters
    name, registered before its own are made.  ``searches``: its players search (a few games a
    second; never a rollout policy).  ``weights``: the file of trained weights its players read (the
    one ``ccsim train --install`` replaces).  ``calls(params)``: ``(slot, id)`` of the other players whose
    entries its compiled code calls, filled into those slots of the parameter vector."""
    name: str
    players: tuple = ()
    files: str | None = None
    load: Callable | None = None
    file_player: Callable | None = None
    file_id: int | None = None
    needs: tuple = ()
    searches: bool = False
    calls: Callable | None = None
    weights: object = None


def families_of(module) -> tuple:
    """The families a module declares: its ``FAMILIES``, or its one player's short form."""
    declared = getattr(module, "FAMILIES", None)
    if declared is not None:
        return tuple(declared)
    if not hasattr(module, "CHOOSE"):
        return ()
    player = Player(module.NAME, module.ID, module.DESCRIPTION, module.CHOOSE,
                    getattr(module, "DEFAULT_PARAMS", None), getattr(module, "SEES_ALL", False))
    return (Family(module.FAMILY, (player,), weights=getattr(module, "WEIGHTS_FILE", None)),)
