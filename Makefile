# paraguide: set up a virtual environment and run the main job or the tests.
#   make demo    set everything up, then run the main job on the bundled example (no arguments needed)
#   make test    set everything up, then lint and run the tests
# Variables: PYTHON (interpreter for the venv), TORCH (pip spec installed first; on a GPU machine pass
# e.g. TORCH="torch --index-url …" or pre-install your CUDA build).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TORCH ?= torch==2.13.0
export HF_HUB_OFFLINE := 1

.PHONY: setup demo test lint clean

setup: $(VENV)/.installed

# torch goes in first, so that no later requirement pulls a multi-GB CUDA build on a CPU machine.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check $(TORCH)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $@

demo: setup
	$(BIN)/paraguide prepare --pairs examples/data/questions_en.tsv --lang en --heldout 0.1 --quiet \
		--out runs/demo/en/train.jsonl
	$(BIN)/paraguide prepare --pairs examples/data/questions_zh.tsv --lang zh --heldout 0.1 --quiet \
		--out runs/demo/zh/train.jsonl
	@echo; echo "first examples (runs/demo/en/train.jsonl, runs/demo/zh/train.jsonl):"
	@head -n 4 runs/demo/en/train.jsonl; head -n 4 runs/demo/zh/train.jsonl

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	$(BIN)/python -m pytest -q

clean:
	rm -rf runs $(VENV) .pytest_cache .ruff_cache
