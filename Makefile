# spots: solve Sprouts positions, emit and verify proof certificates.
GO      ?= go
BIN     := bin
FUZZTIME ?= 20s

.PHONY: all build version test test-long race hostile bench bench-reuse bench-scaling bench-many-cores-build bench-swarm fuzz lint clean

all: build

# The version the commands print for --version and write into the
# certificates they make: git describe of this checkout (a tag or the
# commit, with -dirty for uncommitted changes), stamped in with the linker
# so that it does not depend on the Go toolchain recording the revision
# (it does not with -buildvcs=false or go run). Empty outside a git
# checkout: the commands then say what the build information or a source
# archive's commit says (see internal/buildinfo). SPOTS_VERSION=v1.2.3
# sets it.
ifeq ($(origin SPOTS_VERSION),undefined)
SPOTS_VERSION := $(shell test -e .git && git describe --tags --always --dirty --abbrev=12 2>/dev/null)
endif
LDFLAGS := $(if $(SPOTS_VERSION),-X github.com/spots-dev/spots/internal/buildinfo.stamped=$(SPOTS_VERSION))

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/ ./cmd/...

# The version make build stamps in (empty outside a git checkout).
version:
	@echo '$(SPOTS_VERSION)'

# The whole test suite, as CI runs it (.ci/run): every kind of check, the
# exhaustive, brute-force and differential ones on samples (-short) so that it
# takes minutes. spots-corpus check verifies each corpus certificate once; the
# Go tests and regenerate --check --no-verify then trust them. When the verify
# times index.csv records for the committed certificates add up to more than
# CORPUS_BUDGET, check verifies a fixed sample, the certificates changed
# since the last tag (since HEAD without one) and, in what is left of the
# budget, certificates in turn from a place the commit picks (make
# corpus-check verifies all). Timing runs live in bench, never here. The independent
# check (a second implementation of the rules, spots-verify --independent)
# verifies the fixed sample of check --sample (make
# corpus-check-independent verifies all), and the planted faults of package
# sprouts (tag spotsfault) show that it rejects what they make the solver
# prove.
TEST_FLAGS ?= -short
CORPUS_BUDGET ?= 90s
test: lint
	$(GO) test -count=1 $(TEST_FLAGS) ./...
	$(GO) test -count=1 -race -short -run 'Concurrent' ./sprouts ./solve ./swarm ./verify
	$(GO) test -count=1 $(TEST_FLAGS) -tags spotsdebug -run 'TestOctal|TestSproutsGrundy' ./solve
	$(GO) test -count=1 $(TEST_FLAGS) -tags spotsfault ./internal/faultcheck
	$(GO) run ./cmd/spots-corpus check --budget $(CORPUS_BUDGET)
	$(GO) run ./cmd/spots-corpus check --independent --sample
	$(GO) run ./cmd/spots-corpus regenerate --check --no-verify

# The same suite with the sampled tests in full (half an hour and more).
test-long:
	$(MAKE) test TEST_FLAGS='-timeout 90m'

# The cases of RELIABILITY.md's "Hostile files and faults of long runs",
# each test run on its own with a time limit and 4 GB of address space (the
# code before them hangs or eats memory on several), one line per case.
# HOSTILE_TREE runs them in another checkout (RELIABILITY.md says how).
HOSTILE_TREE ?= .
HOSTILE_TIMEOUT ?= 90s
HOSTILE_CASES = \
	./cmd/spots-verify:^TestScript$$/^hostile_cites_by_content$$ \
	./cmd/spots-verify:^TestScript$$/^hostile_max_cites$$ \
	./verify:^TestCitationChainMemory$$ \
	./verify:^TestCitationLimit$$ \
	./cmd/spots-verify:^TestScript$$/^hostile_bundle_links$$ \
	./cmd/spots-verify:^TestBundleCopiesWhatWasChecked$$ \
	./cmd/spots-verify:^TestScript$$/^hostile_output_dirs$$ \
	./cmd/spots-verify:^TestScript$$/^hostile_outputs_read$$ \
	./swarm:^TestSquattingLiars$$ \
	./cmd/spots-solve:^TestForgedCheckpoint$$ \
	./cmd/spots-solve:^TestScript$$/^state_dir$$ \
	./cmd/spots-solve:^TestScript$$/^hostile_checkpoint$$ \
	./internal/checkpoint:^TestDamagedCheckpoint$$ \
	./cmd/spots-corpus:^TestScript$$/^hostile_index$$ \
	./corpus:^TestHostileTables$$ \
	./cmd/spots-verify:^TestScript$$/^hostile_databases$$ \
	./format:^TestReadSPRStopsAtLongLine$$ \
	./internal/cmdtest:^TestStdoutFull$$ \
	./cmd/spots-solve:^TestOutputsKeepWhatTheyReplace$$ \
	./format:^TestAtomicOutputs$$ \
	./format:^TestAtomicDeviceNode$$ \
	./format:^TestZstdWindowBounded$$ \
	./format:^TestZstdFramesCutShort$$ \
	./cmd/spots-verify:^TestVerdictsStream$$ \
	./cmd/spots-verify:^TestSignal$$ \
	./cmd/spots-solve:^TestScript$$/^limits$$ \
	./cmd/spots-solve:^TestCramStopsAtOnce$$ \
	./cmd/spots-solve:^TestScript$$/^memory_limits$$ \
	./swarm:^TestManyLiars$$ \
	./swarm:^TestLiarsOneCheck$$ \
	./swarm:^TestLiarUnderNewNames$$ \
	./cmd/spots-corpus:^TestAddForgedCheckpoint$$ \
	./cmd/spots-solve:^TestStateDirLocked$$ \
	./cmd/spots-solve:^TestScript$$/^outputs$$ \
	./cmd/spots-verify:^TestScript$$/^usage$$ \
	./cmd/spots-solve:^TestScript$$/^database$$ \
	./corpus:^TestTableRows$$ \
	./cmd/spots-solve:^TestScript$$/^hostile_lock$$ \
	./internal/checkpoint:^TestLockRefusesWhatIsNoLockFile$$ \
	./internal/checkpoint:^TestSaveReplacesLinks$$ \
	./cmd/spots-corpus:^TestScript$$/^hostile_state$$ \
	./cmd/spots-solve:^TestScript$$/^hostile_database$$ \
	./cmd/spots-solve:^TestScript$$/^hostile_outputs$$ \
	./cmd/spots-solve:^TestCheckOutputDirs$$ \
	./cmd/spots-corpus:^TestScript$$/^hostile_outputs$$
hostile:
	@cd '$(HOSTILE_TREE)' && ulimit -v 4000000 && failed=0 && \
	for c in $(HOSTILE_CASES); do \
		pkg=$${c%%:*}; run=$${c#*:}; \
		if out=$$($(GO) test -count=1 -timeout $(HOSTILE_TIMEOUT) -run "$$run" $$pkg 2>&1); then \
			echo "PASS $$pkg $$run"; \
		else \
			failed=$$((failed + 1)); \
			echo "FAIL $$pkg $$run: $$(echo "$$out" | grep -m1 -E 'timed out|out of memory|FAIL:|want|rror' | cut -c1-140)"; \
		fi; \
	done; \
	echo "$$failed failed"; test $$failed = 0

# The race detector on the packages with concurrent code (sprouts, solve,
# swarm): all their tests, in short mode, but two that check no concurrency
# and take minutes under it (TestVectorsAgree 7 min, TestLargeSwarmPaced
# 5 min on 2 loaded cores; make test runs them without it). The rest takes
# some 10 minutes there; the default timeout of 10 minutes a package was
# too short with those two.
RACE_TIMEOUT ?= 30m
race:
	$(GO) test -count=1 -race -short -timeout $(RACE_TIMEOUT) -skip '^(TestVectorsAgree|TestLargeSwarmPaced)$$' ./sprouts ./solve ./swarm

# Rebuild corpus/OUTCOMES.md and corpus/outcomes.svg after changing the corpus
# (phony: corpus/ is also a directory).
.PHONY: corpus
corpus:
	$(GO) run ./cmd/spots-corpus regenerate

# Verify every committed certificate of the corpus and, with CORPUS_DIR (a
# directory, or several separated by :), the certificates kept elsewhere
# that are in it; lists those it does not find.
CORPUS_DIR ?=
.PHONY: corpus-check
corpus-check:
	$(GO) run ./cmd/spots-corpus check $(if $(CORPUS_DIR),--dir '$(CORPUS_DIR)')

# The same with the independent check (spots-verify --independent): every
# Sprouts certificate checked by the second implementation of the rules,
# on every core (0*47 takes a few minutes).
.PHONY: corpus-check-independent
corpus-check-independent:
	$(GO) run ./cmd/spots-corpus check --independent $(if $(CORPUS_DIR),--dir '$(CORPUS_DIR)')

# Per-core speed, measured in one run (about half an hour): this build beside
# the reference itself when REF is a command template for it ({alg}, {pos},
# {nimber}; see BENCHMARKS.md) and REF_CHILDREN a command that makes the
# children of every position of a file. Without REF, beside commit
# BASE_COMMIT instead (built here from git history), whose same-run ratios
# to the reference are known, for ratios chained through it. BENCH_FLAGS
# goes to every table (-cpu: CPU seconds, for a machine shared with other
# work). Then the children benchmarks of package sprouts.
BASE_COMMIT ?= 0b97944
BASE_DIR ?= $(or $(TMPDIR),/tmp)/spots-$(BASE_COMMIT)
BENCH_N ?= 12,13,14,15
BENCH_RUNS ?= 3
BENCH_FLAGS ?=
REF ?=
REF_CHILDREN ?=
BENCH_VS = $(if $(REF),-ref '$(REF)',-base $(BASE_DIR)/spots-solve)
bench: build
	@test -n '$(REF)' || test -x $(BASE_DIR)/spots-solve || { rm -rf $(BASE_DIR).src && \
		git worktree add --detach $(BASE_DIR).src $(BASE_COMMIT) && \
		(cd $(BASE_DIR).src && $(GO) build -o $(BASE_DIR)/ ./cmd/...); \
		status=$$?; git worktree remove --force $(BASE_DIR).src; exit $$status; }
	$(GO) run ./lab/benchsolve -compare $(BENCH_FLAGS) -bin $(BIN)/spots-solve $(BENCH_VS) -n $(BENCH_N) -alg dfpn -runs $(BENCH_RUNS)
	$(GO) run ./lab/benchsolve -compare $(BENCH_FLAGS) -bin $(BIN)/spots-solve $(BENCH_VS) -n 12,13,14 -alg pns -runs $(BENCH_RUNS)
	$(GO) run ./lab/benchsolve -children testdata/bench_positions.txt $(BENCH_FLAGS) -bin $(BIN)/spots-solve $(if $(REF_CHILDREN),-ref-children '$(REF_CHILDREN)',-base $(BASE_DIR)/spots-solve) -runs 7
	$(GO) run ./lab/benchsolve -compare -nimber $(BENCH_FLAGS) -bin $(BIN)/spots-solve $(BENCH_VS) -n 10,11,12,13,14 -alg dfpn -runs 2
	$(GO) test -run '^$$' -bench '^BenchmarkChildren$$' -benchtime 4000x ./sprouts
	$(GO) test -run '^$$' -bench '^BenchmarkChildrenSearch$$' -benchtime 3x ./sprouts

# Every core of this machine against sequential DFPN in the same run:
# DFPN alone and as many copies at once as there are CPUs (what a busy core
# costs), plain spots-solve, PDFPN with SCALE_THREADS threads and one-machine
# swarms of SCALE_WORKERS layouts (W x G: W local workers of G solvers),
# SCALE_RUNS interleaved runs each: wall time, speedup, search overhead, CPU
# per iteration over DFPN's, utilisation, every certificate verified, and
# the targets met or missed (an hour and more on 2 cores).
SCALE_N ?= 18,19,20
SCALE_THREADS ?= 2
SCALE_WORKERS ?= 2x1
SCALE_RUNS ?= 3
bench-scaling: build
	$(GO) run ./lab/benchsolve -bin $(BIN)/spots-solve -n $(SCALE_N) -threads $(SCALE_THREADS) -workers '$(SCALE_WORKERS)' -runs $(SCALE_RUNS)

# Drawing on the corpus: each 0*n of REUSE_N solved from nothing and with
# spots-solve --reuse on the corpus's certificates of smaller n, in the same
# run, with each algorithm of REUSE_ALG (iterations, and whole-process
# seconds: reading the certificates, the search, and the check of the
# result with every certificate it relies on).
REUSE_N ?= 17,18,19,20,21,22
REUSE_ALG ?= dfpn,pdfpn,swarm
bench-reuse: build
	$(GO) run ./lab/benchsolve -reuse corpus -bin $(BIN)/spots-solve -n $(REUSE_N) -alg $(REUSE_ALG)

# Static binaries for the scaling benchmark on a machine of many cores
# (lab/benchsolve/many-cores.sh runs them there, no Go needed):
# spots-solve, spots-verify and benchsolve in bin/static.
bench-many-cores-build:
	mkdir -p $(BIN)/static
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-s -w $(LDFLAGS)' -o $(BIN)/static/ ./cmd/spots-solve ./cmd/spots-verify ./lab/benchsolve
	git describe --always --dirty > $(BIN)/static/version.txt

# The swarm in simulation, 1 … 1024 virtual cores (0*14: a quarter of an hour here): the
# paper's statistics per number of cores and the scaling curve as SVG.
# Solvers form groups of up to SWARM_GROUPING, as machines of the paper's
# runs did (SWARM_GROUPING=1: every solver a group of its own), and run
# SWARM_THREADS PDFPN threads each (0: sequential DFPN, deterministic).
# Jobs run SWARM_ITERATIONS iterations and report every SWARM_UPDATES;
# each solver has a table of SWARM_CAPACITY entries (0*20 at 1,024 cores:
# SWARM_POS='0*20' SWARM_CAPACITY=65536, half an hour a point here).
# The master's costs are swarmlab.DefaultCosts, µs of CPU measured on this
# project's machine, charged against the CPU time of an iteration of the
# sequential baseline on SWARM_POS, or SWARM_ITERATION_US µs when given
# (then the figures are the same on every machine).
SWARM_POS ?= 0*14
SWARM_N ?= 1,2,4,8,16,32,64,128,256,512,1024
SWARM_GROUPING ?= 32
SWARM_THREADS ?= 0
SWARM_ITERATIONS ?= 100000
SWARM_UPDATES ?= 1000
SWARM_CAPACITY ?= 4096
SWARM_ITERATION_US ?=
bench-swarm:
	$(GO) run ./lab/benchswarm -pos '$(SWARM_POS)' -n $(SWARM_N) -grouping $(SWARM_GROUPING) -threads $(SWARM_THREADS) -iterations $(SWARM_ITERATIONS) -updates $(SWARM_UPDATES) -capacity $(SWARM_CAPACITY) $(if $(SWARM_ITERATION_US),-iteration-us $(SWARM_ITERATION_US)) -svg docs/swarm-scaling.svg

# Short runs of every fuzz target; set FUZZTIME for longer ones.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./sprouts
	$(GO) test -run '^$$' -fuzz '^FuzzFromKey$$' -fuzztime $(FUZZTIME) ./sprouts
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./verify/sprouts2
	$(GO) test -run '^$$' -fuzz '^FuzzReadSPR$$' -fuzztime $(FUZZTIME) ./format
	$(GO) test -run '^$$' -fuzz '^FuzzReadCertificate$$' -fuzztime $(FUZZTIME) ./format
	$(GO) test -run '^$$' -fuzz '^FuzzParseClaim$$' -fuzztime $(FUZZTIME) ./format
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeMessage$$' -fuzztime $(FUZZTIME) ./swarm
	$(GO) test -run '^$$' -fuzz '^FuzzReadIndex$$' -fuzztime $(FUZZTIME) ./corpus
	$(GO) test -run '^$$' -fuzz '^FuzzReadLiterature$$' -fuzztime $(FUZZTIME) ./corpus
	$(GO) test -run '^$$' -fuzz '^FuzzReadCramIndex$$' -fuzztime $(FUZZTIME) ./corpus
	$(GO) test -run '^$$' -fuzz '^FuzzReadLemmaIndex$$' -fuzztime $(FUZZTIME) ./corpus
	$(GO) test -run '^$$' -fuzz '^FuzzEachLine$$' -fuzztime $(FUZZTIME) ./cmd/spots-position
	$(GO) test -run '^$$' -fuzz '^FuzzCheckIPCStream$$' -fuzztime $(FUZZTIME) ./format
	$(GO) test -run '^$$' -fuzz '^FuzzZstdFrames$$' -fuzztime $(FUZZTIME) ./format
	$(GO) test -run '^$$' -fuzz '^FuzzFromGLOP$$' -fuzztime $(FUZZTIME) ./cmd/spots-solve
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./cram
	$(GO) test -run '^$$' -fuzz '^FuzzParseGame$$' -fuzztime $(FUZZTIME) ./play
	$(GO) test -run '^$$' -fuzz '^FuzzDescribe$$' -fuzztime $(FUZZTIME) ./play
	$(GO) test -run '^$$' -fuzz '^FuzzParseChoice$$' -fuzztime $(FUZZTIME) ./cmd/spots-play
	$(GO) test -run '^$$' -fuzz '^FuzzLineReader$$' -fuzztime $(FUZZTIME) ./cmd/spots-play

# gofmt, go vet and staticcheck, pinned: go run fetches it through the
# module proxy once and caches it (a cold analysis cache adds about half a
# minute of CPU to make test, a warm one two seconds).
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...

clean:
	rm -rf $(BIN)

# The container image of deploy/Dockerfile (static binaries, distroless).
IMAGE ?= spots:latest
.PHONY: image test-deploy
image:
	docker build -f deploy/Dockerfile --build-arg SPOTS_VERSION='$(SPOTS_VERSION)' -t $(IMAGE) .

# The deployment files of deploy/: their shape checked offline, then a
# master and two workers run on 127.0.0.1 with the flags and environment
# the systemd units and the Kubernetes manifests give them, and the Slurm
# batch script run with a stand-in for srun (make test runs the same
# tests).
test-deploy:
	$(GO) test -count=1 ./deploy/
	$(GO) test -count=1 -run 'TestDeploy' ./cmd/spots-solve/

# The README's commands for several machines, run on three network
# namespaces of this machine (10.0.0.1-3 on a bridge; root and iproute2):
# a swarm across a network that is not loopback. Not part of make test.
POS ?= 0*12
.PHONY: netns-check
netns-check:
	deploy/netns-check.sh '$(POS)'
