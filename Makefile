# paraguide: set up a virtual environment and run the main job or the tests.
#   make demo    set everything up, then build a paraphrased test set from the bundled SQuAD-format example
#                (the main job; no arguments, no shared data needed), and print the pretrained
#                paraphraser's raw rewrites of a few of its questions
#   make test    set everything up, then lint and run the tests
#   make test-fast  set everything up, then run the tests not marked slow (no lint; under a minute)
# Variables: PYTHON (interpreter for the venv), TORCH (pip spec installed first; on a GPU machine pass
# e.g. TORCH="torch --index-url …" or pre-install your CUDA build).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TORCH ?= torch==2.13.0
export HF_HUB_OFFLINE := 1

.PHONY: setup demo experiment test test-fast lint clean

setup: $(VENV)/.installed

# torch goes in first, so that no later requirement pulls a multi-GB CUDA build on a CPU machine.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check $(TORCH)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $@

demo: setup
	$(BIN)/paraguide build-testset --squad examples/data/squad_en.json --source ppdb:examples/data/ppdb_en.txt \
		--top-k 5 --out runs/demo/testset --overwrite
	$(BIN)/paraguide paraphrase --input examples/data/rewrite_en.tsv --model gemma-en --format text --dtype float32

# The English QA experiment end to end on the bundled example: test set, augmentation, two QA models, report.
experiment: setup
	BIN=$(BIN) bash recipes/experiment.sh

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	$(BIN)/python -m pytest -q

test-fast: setup
	$(BIN)/python -m pytest -q -m "not slow"

clean:
	rm -rf runs $(VENV) .pytest_cache .ruff_cache
