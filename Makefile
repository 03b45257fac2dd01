# dcglab: the two commands of the README are `make book` and `make test`.
#   make book   create .venv, install the pinned requirements and dcglab, fetch the
#               pinned web assets (npm), build the static site into _build/html
#   make test   everything `make book` and `make course` do, then every test: unit,
#               property, reference libraries, doctests, nbval over every chapter, browser
#   make pdf    the whole book as one PDF, _build/pdf/dcglab.pdf (needs Debian's Chromium)
#   make publish  a clean `make book`: _build/html as GitHub Pages serves it (.nojekyll,
#               404.html, only what pages use); .github/workflows/pages.yml deploys it
#   make course the course edition (no solutions) into _build/course/_build/html and the
#               instructor's solutions into _build/solutions/_build/html
#   make test-fast  the tests not marked `browser` or `slow` (no site build, no nbval):
#               pytest -m "not browser and not slow"
#   make lab    convenience: open the notebooks in JupyterLab, set to save widget state
#   make execute  re-execute every chapter notebook in place (saves widget state)

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard chapters/*.ipynb) $(wildcard *.ipynb))

.PHONY: book course pdf publish test test-fast lab execute assets lint clean

# Developers and CI have the Cranfield files beside the repository; users download
# them on first use (dcglab.collections.cranfield.fetch). An explicit DCGLAB_CRANFIELD_DIR wins.
SHARED_CRANFIELD := $(abspath ../shared/data/cranfield)
ifneq ($(wildcard $(SHARED_CRANFIELD)/cranqrel),)
export DCGLAB_CRANFIELD_DIR ?= $(SHARED_CRANFIELD)
endif

$(STAMP): requirements.txt pyproject.toml setup.py src/dcglab/evaluation/batch/_trec.c
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $@

assets: package.json
	@if command -v npm >/dev/null 2>&1; then \
		npm install --no-audit --no-fund --loglevel=error; \
	else \
		echo "notice: npm not found; the site will load MathJax from a public CDN"; \
	fi

book: $(STAMP) assets
	$(BIN)/jupyter-book build --all -W --keep-going .
	@echo "Book built. Open _build/html/index.html in a browser, or serve it with:"
	@echo "  $(BIN)/python -m http.server --directory _build/html 8000  (then visit http://127.0.0.1:8000)"

course: $(STAMP) assets
	$(BIN)/python scripts/course_edition.py course
	$(BIN)/python scripts/course_edition.py solutions

pdf: book
	$(BIN)/python scripts/print_book.py

# The published tree: a fresh build (no file of an earlier build left behind). Preview
# it as it will be served with `.venv/bin/python scripts/site_server.py`.
publish:
	rm -rf _build/html
	$(MAKE) book
	@test -f _build/html/.nojekyll && test -f _build/html/404.html
	@echo "_build/html is ready for GitHub Pages (.github/workflows/pages.yml deploys it);"
	@echo "preview it under its sub-path: $(BIN)/python scripts/site_server.py"

# The PDF needs Chromium; without it (outside CI) its tests skip with a reason.
test: book course
	@if [ -x /usr/bin/chromium ]; then $(BIN)/python scripts/print_book.py; \
	else echo "notice: no /usr/bin/chromium: the PDF is not printed and its tests skip"; fi
	$(BIN)/python -m pytest

test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not browser and not slow"

# JupyterLab saves widget state with the notebook only when told to: set it for
# this environment, so that re-executing a chapter in Lab keeps its explorers
# working on the static site.
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.json

lab: $(STAMP)
	@mkdir -p $(dir $(LAB_SETTINGS))
	@echo '{"@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": true}}' > $(LAB_SETTINGS)
	@echo "Widget state is saved with each notebook. Run > Restart Kernel and Run All Cells, then save."
	$(BIN)/jupyter lab chapters/

execute: $(STAMP)
	@for nb in $(NOTEBOOKS); do \
		echo "executing $$nb"; \
		$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
			--ExecutePreprocessor.record_timing=False --ExecutePreprocessor.timeout=600 $$nb || exit 1; \
	done

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

clean:
	rm -rf _build _vendor
