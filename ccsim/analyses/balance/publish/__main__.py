"""``python -m ccsim.analyses.balance.publish DIR``: rewrite a balance folder's published answer (no game) and
its skill.png; DIR defaults to results/balance; the answer's paragraph is printed.  A door (it draws)."""
import sys
from pathlib import Path

from ccsim.analyses.balance.publish.answer import publish
from ccsim.analyses.balance.publish.skill import level_elos
from ccsim.analyses.balance.space import load_space
from ccsim.present.balance_plot import write_answer_skill

folder = Path(sys.argv[1] if len(sys.argv) > 1 else "results/balance")
rec = publish(folder)
write_answer_skill(folder, rec, level_elos(), load_space(folder / "space.toml").tolerance)
print(rec["text"])
