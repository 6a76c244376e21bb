"""Over-stability traps for QA (DuReader-robust §2.2, Algorithm 1; Jia & Liang 2017's AddSent): a sentence
that shares the question's words and holds an entity of the answer's type is put into the passage, but it
talks about something else, so it does not answer the question; a model that matches words and answer
types falls into it. Also the selection variant (passages that already hold 2 to k entities of the answer's
type). How often predictions land on the trap's entity is :func:`paraguide.evaluate.traps.trap_hits`.

Modules: ``records`` (Frame, Mutation, Trap), ``english`` and ``chinese`` (a question's frame and the
statement made from it), ``values`` (numbers, amounts, times and names compared with the answer), ``maker``
(TrapMaker, EntityPool). The job that reads and writes SQuAD files is :mod:`paraguide.pipeline.trap`.
"""

from paraguide.perturb.trap.maker import EntityPool, TrapMaker
from paraguide.perturb.trap.records import (
    AMOUNT_TYPES,
    NUMERIC_TYPES,
    POSITIONS,
    TIME_TYPES,
    Frame,
    Inserted,
    Mutation,
    Trap,
)
from paraguide.perturb.trap.values import shift_number

__all__ = [
    "AMOUNT_TYPES",
    "NUMERIC_TYPES",
    "POSITIONS",
    "TIME_TYPES",
    "EntityPool",
    "Frame",
    "Inserted",
    "Mutation",
    "Trap",
    "TrapMaker",
    "shift_number",
]
