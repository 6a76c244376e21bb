"""paraguide: suggestion-guided question paraphrasing for QA and QM robustness data.

The package is layered so that imports flow one way:
``cli -> pipeline -> model / suggest / score -> data / text``.
"""

__version__ = "0.1.0.dev0"

from paraguide.errors import DataError, ParaguideError

__all__ = ["DataError", "ParaguideError", "__version__"]
