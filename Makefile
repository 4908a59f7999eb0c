# carc - a Carcassonne rules engine.
#
#   make              libcarc (static and shared), the carc command, the plugins
#   make test         build and run every test (what .ci/run runs)
#   make check-layers each layer keeps to its headers (make test runs it)
#   make test-quick   units, scenarios and a short property run (under 20 s)
#   make golden       rewrite tests/golden/hashes.txt (seeded games' results) and print what changed
#   make test-combinations  every pair and triple of the shipped modules, 200 games each
#   make test-slurm   a study as a Slurm array job on a one-node cluster (as root; CI runs it)
#   make check-asan   the same tests under AddressSanitizer and UBSan
#   make bench        the benchmark (games per second and more)
#   make strength     the bots' strength table (bench/strength.sh; long: STRENGTH_GAMES)
#   make calibration  the A/A calibration of compare (bench/calibration.sh; long: CALIB_REPS)
#   make fuzz         the libFuzzer targets, FUZZ_SECONDS each (clang, ASan, UBSan)
#   make valgrind     a whole game of each shipped variant under valgrind memcheck
#   make deps         install the Debian packages carc needs
#   make install      PREFIX=/usr/local DESTDIR=
#
# Objects go to $(BUILD) (build/ by default; build/asan for the sanitizer run).

BUILD   ?= build
PREFIX  ?= /usr/local
DATADIR ?= $(CURDIR)
PLUGINDIR ?= $(CURDIR)/$(BUILD)/plugins
CC      ?= cc

DEPS_PKGS := lua5.4 inih cmocka libmicrohttpd jansson nettle sqlite3
DEBIAN_PKGS := liblua5.4-dev libinih-dev libcmocka-dev libmicrohttpd-dev libjansson-dev nettle-dev libsqlite3-dev pkg-config \
               nginx-light openssl

# Install the libraries first when pkg-config cannot find them.
ifeq ($(filter deps clean,$(MAKECMDGOALS)),)
ifneq ($(shell pkg-config --exists $(DEPS_PKGS) 2>/dev/null && echo yes),yes)
$(info carc: installing missing build dependencies ($(DEBIAN_PKGS)))
$(shell $(MAKE) --no-print-directory deps >&2)
endif
endif

LUA_CFLAGS  := $(shell pkg-config --cflags lua5.4 2>/dev/null)
INIH_CFLAGS := $(shell pkg-config --cflags inih 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs lua5.4 inih 2>/dev/null)
# carc serve: the HTTP server, the JSON reader and writer, and SQLite for its games (the command only).
SERVE_CFLAGS := $(shell pkg-config --cflags libmicrohttpd jansson sqlite3 2>/dev/null)
SERVE_LIBS   := $(shell pkg-config --libs libmicrohttpd jansson sqlite3 2>/dev/null)
# Studies: SHA-256 of the files a study played (the command only).
HASH_LIBS    := $(shell pkg-config --libs nettle 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

# snprintf into bounded buffers truncates on purpose: no format-truncation.
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers \
           -Wno-format-truncation
OPT     ?= -O2 -g
# cli/ by kind: commands/ (main and one file a command), agents/ (the bots and
# their learning), studies/ (many games, reports, scenario checks), drawing/
# (SVG, HTML, the text board), play/ (the terminal game and carc serve).
CLI_DIRS   := cli/commands cli/agents cli/studies cli/drawing cli/play
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) $(OPT) -fPIC \
           -DCARC_DATADIR='"$(DATADIR)"' -DCARC_PLUGINDIR='"$(PLUGINDIR)"'
LDLIBS  += $(PKG_LIBS) -ldl -lm -lpthread
CLI_LIBS := $(SERVE_LIBS) $(HASH_LIBS)

# libcarc in three layers (docs/architecture.md), each compiled with only the
# include paths it may use: kernel/ the game (no Lua, no other layer, so an
# #include <lua.h> there fails to build), host/ the plugin loader and the Lua
# host, formats/ the files (variants, compositions, tile sets, records, INI).
KERNEL_INC  := -Ikernel
HOST_INC    := -Ikernel -Ihost -Iformats $(LUA_CFLAGS)
FORMATS_INC := -Ikernel -Iformats -Ihost $(INIH_CFLAGS)
CLI_INC     := -Ikernel -Iformats $(CLI_DIRS:%=-I%) $(SERVE_CFLAGS)
# Tests and the benchmark reach into every layer (white-box tests).
ALL_INC     := -Ikernel -Ihost -Iformats $(CLI_DIRS:%=-I%) $(LUA_CFLAGS) $(INIH_CFLAGS) $(SERVE_CFLAGS)

KERNEL_SRC  := $(wildcard kernel/*.c)
HOST_SRC    := $(wildcard host/*.c)
FORMATS_SRC := $(wildcard formats/*.c)
CLI_SRC     := $(wildcard $(CLI_DIRS:%=%/*.c))
LIB_OBJ    := $(KERNEL_SRC:%.c=$(BUILD)/%.o) $(HOST_SRC:%.c=$(BUILD)/%.o) $(FORMATS_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ    := $(CLI_SRC:%.c=$(BUILD)/%.o)
CLI_LIB_OBJ := $(filter-out $(BUILD)/cli/commands/main.o,$(CLI_OBJ))

LIB_A  := $(BUILD)/libcarc.a
LIB_SO := $(BUILD)/libcarc.so
CARC   := $(BUILD)/carc

TEST_SRC  := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

PLUGIN_DIRS := $(wildcard plugins/*/)
PLUGIN_SO   := $(patsubst plugins/%/,$(BUILD)/plugins/%.so,$(PLUGIN_DIRS))
TEST_PLUGIN_DIRS := $(wildcard tests/plugins/*/)
TEST_PLUGIN_SO   := $(patsubst tests/plugins/%/,$(BUILD)/tests/plugins/%.so,$(TEST_PLUGIN_DIRS))

.PHONY: all test test-quick check-asan bench strength deps install clean fuzz fuzz-build valgrind
.DELETE_ON_ERROR:

all: $(LIB_A) $(LIB_SO) $(CARC) $(PLUGIN_SO)

# Each object lists the headers it read (-MMD -MP: $(BUILD)/x.d beside x.o).
$(BUILD)/kernel/%.o:  LAYER_INC = $(KERNEL_INC)
$(BUILD)/host/%.o:    LAYER_INC = $(HOST_INC)
$(BUILD)/formats/%.o: LAYER_INC = $(FORMATS_INC)
$(BUILD)/cli/%.o:     LAYER_INC = $(CLI_INC)
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LAYER_INC) -MMD -MP -c $< -o $@

$(LIB_A): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(LIB_SO): $(LIB_OBJ)
	$(CC) $(CFLAGS) -shared -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(CARC): $(CLI_OBJ) $(LIB_A)
	$(CC) $(CFLAGS) -rdynamic -o $@ $(CLI_OBJ) $(LIB_A) $(LDFLAGS) $(LDLIBS) $(CLI_LIBS)

# Plugins see only the public plugin header, as a fan's out-of-tree build does.
$(BUILD)/plugins/%.so: plugins/%/*.c kernel/carc_plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ikernel -shared -o $@ $(filter %.c,$^)

$(BUILD)/tests/plugins/%.so: tests/plugins/%/*.c kernel/carc_plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ikernel -shared -o $@ $(filter %.c,$^)

# The driver of many games through carc serve's API (tests/serve_kill_test.sh, bench/serve_load.sh).
SERVE_DRIVER := $(BUILD)/tests/serve_driver
$(SERVE_DRIVER): tests/serve_driver.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SERVE_CFLAGS) -o $@ $< $(SERVE_LIBS) -lpthread

$(BUILD)/tests/%: tests/%.c $(LIB_A) $(CLI_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ALL_INC) -Itests -MMD -MP -o $@ $< $(CLI_LIB_OBJ) $(LIB_A) $(LDFLAGS) $(LDLIBS) $(CLI_LIBS) $(CMOCKA_LIBS)

# The stored reference result (tests/golden/hashes.txt): writes it anew from
# the seeded games of every shipped variant and prints what changed.
.PHONY: golden
golden: all $(BUILD)/tests/test_golden
	@CARC_DATA=$(CURDIR) $(BUILD)/tests/test_golden --write $(CURDIR)/tests/golden/hashes.txt

# Every test: the layer check (as check-layers), the cmocka programs, the
# scenario records (carc test), then the command-line tests
# (tests/run_all.sh): each runs even when one before it failed, and the last
# lines say which failed and "N passed, N failed".
test: all $(TEST_BIN) $(TEST_PLUGIN_SO) $(SERVE_DRIVER)
	@CARC=$(CURDIR)/$(CARC) CARC_DATA=$(CURDIR) SERVE_DRIVER=$(CURDIR)/$(SERVE_DRIVER) TEST_PLUGIN_PATH=$(CURDIR)/$(BUILD)/tests/plugins \
	 INSTALL_TEST=$(if $(filter build,$(BUILD)),1,0) sh tests/run_all.sh $(TEST_BIN)

# The layers keep to their headers (tests/check_layers.sh: kernel/ the game
# alone, host/ and formats/ through kernel_host.h, cli/ through the public
# headers), and the check sees a violation planted in a copy of the tree.
.PHONY: check-layers
check-layers:
	@sh tests/check_layers.sh
	@sh tests/check_layers_test.sh >/dev/null || sh tests/check_layers_test.sh

# The quick tier, for while you work: the unit and scenario programs, then the
# property tests on a few games each (self-checking every move, as in make
# test). Not the command-line, sandbox, search, study or fuzz-regression tests.
QUICK_UNITS := board check inputs limits plugins render figures placement strength
QUICK_PROPERTY := property ark robbers princess_dragon
QUICK_GAMES ?= 40
test-quick: all $(patsubst %,$(BUILD)/tests/test_%,$(QUICK_UNITS) $(QUICK_PROPERTY)) $(TEST_PLUGIN_SO)
	@set -e; for t in $(QUICK_UNITS); do echo "== test_$$t"; \
	    CARC_DATA=$(CURDIR) CARC_PLUGIN_PATH=$(CURDIR)/$(BUILD)/tests/plugins $(BUILD)/tests/test_$$t >/dev/null || \
	    { CARC_DATA=$(CURDIR) CARC_PLUGIN_PATH=$(CURDIR)/$(BUILD)/tests/plugins $(BUILD)/tests/test_$$t; exit 1; }; done
	@echo "== carc test tests/scenarios"; CARC_DATA=$(CURDIR) $(CARC) test --quiet tests/scenarios
	@set -e; for t in $(QUICK_PROPERTY); do echo "== test_$$t ($(QUICK_GAMES) games)"; \
	    CARC_TEST_GAMES=$(QUICK_GAMES) CARC_DATA=$(CURDIR) CARC_PLUGIN_PATH=$(CURDIR)/$(BUILD)/tests/plugins $(BUILD)/tests/test_$$t >/dev/null || \
	    { CARC_TEST_GAMES=$(QUICK_GAMES) CARC_DATA=$(CURDIR) CARC_PLUGIN_PATH=$(CURDIR)/$(BUILD)/tests/plugins $(BUILD)/tests/test_$$t; exit 1; }; done
	@echo "test-quick: passed (make test runs everything)"

# Every pair and triple of the shipped modules, 200 seeded games each (make
# test plays 2 each), in two processes; CI runs it.
# The new expansions' full property runs (make test plays fewer): 1000
# random and 100 greedy games of each, every board checked after every move
# (tests/river_checks.h: river continuity, no U-turn; tests/abbey_mayor_checks.h:
# abbeys only in holes, barns only where four fields meet; tests/tower_checks.h:
# floors, reach of captures, exchanges, ransoms).
.PHONY: test-expansions
test-expansions: all $(BUILD)/tests/test_river $(BUILD)/tests/test_abbey_mayor $(BUILD)/tests/test_tower
	@CARC_DATA=$(CURDIR) CARC_RIVER_GAMES=1000 CARC_GREEDY_GAMES=100 $(BUILD)/tests/test_river
	@CARC_DATA=$(CURDIR) CARC_AM_GAMES=1000 CARC_GREEDY_GAMES=100 $(BUILD)/tests/test_abbey_mayor
	@CARC_DATA=$(CURDIR) CARC_TOWER_GAMES=1000 CARC_GREEDY_GAMES=100 $(BUILD)/tests/test_tower

COMBO_GAMES ?= 200
.PHONY: test-combinations
test-combinations: all $(BUILD)/tests/test_combinations
	@CARC_DATA=$(CURDIR) CARC_COMBO_GAMES=$(COMBO_GAMES) CARC_COMBO_SHARD=1/2 $(BUILD)/tests/test_combinations & a=$$!; \
	 CARC_DATA=$(CURDIR) CARC_COMBO_GAMES=$(COMBO_GAMES) CARC_COMBO_SHARD=2/2 $(BUILD)/tests/test_combinations; b=$$?; \
	 wait $$a && [ $$b -eq 0 ]

# The HTML replay page of carc render and the page of carc serve in headless
# chromium (Debian's package), driven by node; screenshots in $(BUILD)/screenshots.
.PHONY: test-browser
test-browser: all
	@mkdir -p $(BUILD)/screenshots
	@CARC=$(CURDIR)/$(CARC) CARC_DATA=$(CURDIR) CARC_SHOTS=$(CURDIR)/$(BUILD)/screenshots sh tests/browser_test.sh

# A study as a Slurm array job of 8 shards on a one-node cluster the test
# starts and stops itself (Debian's slurm-wlm and munge; as root); CI runs it.
.PHONY: test-slurm
test-slurm: all
	@timeout 300 env CARC=$(CURDIR)/$(CARC) CARC_DATA=$(CURDIR) sh tests/slurm_test.sh

check-asan:
	$(MAKE) BUILD=build/asan OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	        LDFLAGS="-fsanitize=address,undefined" CARC_TEST_GAMES=300 test

bench: $(BUILD)/bench/bench $(CARC) $(PLUGIN_SO) $(TEST_PLUGIN_SO)
	CARC_DATA=$(CURDIR) CARC_PLUGIN_PATH=$(CURDIR)/$(BUILD)/tests/plugins $(BUILD)/bench/bench

# The bots against each other (docs/bots.md): long; size it with STRENGTH_GAMES.
# The A/A calibration of compare, long form (bench/calibration.sh; CALIB_REPS).
.PHONY: calibration
calibration: $(CARC)
	CARC=$(CURDIR)/$(CARC) CARC_DATA=$(CURDIR) nice -n 10 sh bench/calibration.sh

strength: $(CARC) $(PLUGIN_SO)
	CARC=$(CURDIR)/$(CARC) CARC_DATA=$(CURDIR) nice -n 10 sh bench/strength.sh

$(BUILD)/bench/bench: bench/bench.c $(LIB_A) $(CLI_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ALL_INC) -MMD -MP -O3 -o $@ $< $(CLI_LIB_OBJ) $(LIB_A) $(LDFLAGS) $(LDLIBS) $(CLI_LIBS)

# The fuzz targets' sources are included by the test that replays their
# regressions and seed corpora.
$(BUILD)/tests/test_fuzz_regressions: tests/fuzz/*.c tests/fuzz/*.h

# ---- fuzzing: clang's libFuzzer with ASan and UBSan (docs/security.md) ---------
# Each target runs FUZZ_SECONDS from its seeds: the project's own files of its
# kind, read in place (FUZZ_SEEDS_T; tests/fuzz/fuzz_seeds.h lists the same);
# what the run learns goes to build/fuzz/corpus/T. A finding stops
# make; its input is in build/fuzz/artifacts/. Needs clang and its fuzzer
# runtime (Debian: clang, libclang-rt-14-dev). FUZZ_SEED=N fixes libFuzzer's
# random seed, so a run (CI's) can be repeated input for input; 0 draws one
# (printed in each target's first lines as "Seed:").
FUZZ_SECONDS ?= 60
FUZZ_SEED    ?= 0
comma := ,
FUZZ_TARGETS := tileset variant record lua lua_grammar
FUZZ_BUILD   := build/fuzz
FUZZ_OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize-recover=all -Wno-unknown-warning-option
FUZZ_SEEDS_tileset := tiles tests/tiles tests/bad/tiles
FUZZ_SEEDS_variant := variants variants/house tests/variants tests/good tests/bad/variants tests/fuzz/seeds/variant
FUZZ_SEEDS_record  := tests/scenarios tests/bad/records
FUZZ_SEEDS_lua     := scripts scripts/examples tests/scripts tests/scripts/sandbox
FUZZ_SEEDS_lua_grammar := tests/fuzz/seeds/lua_grammar
FUZZ_LEN_tileset := 16384
FUZZ_LEN_variant := 4096
FUZZ_LEN_record  := 16384
FUZZ_LEN_lua     := 8192
# lua_grammar: every byte is a choice, so long inputs from the start (-len_control=0)
FUZZ_LEN_lua_grammar := 256
FUZZ_FLAGS   ?= -timeout=30 -rss_limit_mb=2560 -print_final_stats=1 -close_fd_mask=2

fuzz-build:
	@command -v clang >/dev/null || { echo "make fuzz needs clang (apt-get install clang libclang-rt-14-dev)"; exit 1; }
	$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang OPT="$(FUZZ_OPT)" \
	        $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
	@# The C plugins, for variants and records that name them; one still being
	@# written does not stop the fuzzing of the others. Sanitized, but without
	@# coverage counters: libFuzzer would read those after dlclose unmapped them.
	@$(MAKE) --no-print-directory -k BUILD=$(FUZZ_BUILD) CC=clang OPT="$(subst fuzzer-no-link$(comma),,$(FUZZ_OPT))" \
	        $(PLUGIN_DIRS:plugins/%/=$(FUZZ_BUILD)/plugins/%.so) >/dev/null 2>&1 || \
	        echo "fuzz: some plugins did not build; variants naming them will not load"

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(LIB_A)
	$(CC) $(CFLAGS) $(ALL_INC) -fsanitize=fuzzer -Itests/fuzz -o $@ $< $(LIB_A) $(LDFLAGS) $(LDLIBS)

fuzz: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/artifacts; \
	    echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
	    case $$t in tileset) len=$(FUZZ_LEN_tileset); seeds="$(FUZZ_SEEDS_tileset)";; \
	                variant) len=$(FUZZ_LEN_variant); seeds="$(FUZZ_SEEDS_variant)";; \
	                record) len=$(FUZZ_LEN_record); seeds="$(FUZZ_SEEDS_record)";; \
	                lua_grammar) len="$(FUZZ_LEN_lua_grammar) -len_control=0"; seeds="$(FUZZ_SEEDS_lua_grammar)";; \
	                *) len=$(FUZZ_LEN_lua); seeds="$(FUZZ_SEEDS_lua)";; esac; \
	    CARC_DATA=$(CURDIR) $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) -max_len=$$len $(FUZZ_FLAGS) \
	        -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$t- $(FUZZ_BUILD)/corpus/$$t $$seeds; \
	done

# ---- valgrind memcheck: one whole game of each shipped variant ------------------
VALGRIND ?= valgrind -q --leak-check=full --error-exitcode=1
valgrind: all
	@command -v valgrind >/dev/null || { echo "make valgrind needs valgrind (apt-get install valgrind)"; exit 1; }
	@set -e; for v in variants/*.ini variants/*/*.ini; do \
	    if ! msg=$$(CARC_DATA=$(CURDIR) $(CARC) variant show $$v 2>&1 >/dev/null); then \
	        echo "valgrind: skipping $$v: it does not load yet: $$msg"; continue; fi; \
	    np=$$(CARC_DATA=$(CURDIR) $(CARC) variant show $$v | sed -n 's/^players = \([0-9]*\)-.*/\1/p'); \
	    agents=greedy; i=1; while [ $$i -lt $${np:-2} ]; do agents=$$agents,random; i=$$((i + 1)); done; \
	    echo "== valgrind: a game of $$v ($$agents)"; \
	    CARC_DATA=$(CURDIR) $(VALGRIND) $(CARC) sim --variant $$v --games 1 --seed 1 --players $$agents >/dev/null; \
	done; echo "valgrind: no error, no leak"

deps:
	@if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	 $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEBIAN_PKGS) >/dev/null

# An installed carc finds its data under $(PREFIX)/share/carc.
install:
	rm -rf build/install
	$(MAKE) BUILD=build/install DATADIR=$(PREFIX)/share/carc PLUGINDIR=$(PREFIX)/lib/carc/plugins all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/carc \
	           $(DESTDIR)$(PREFIX)/share/carc $(DESTDIR)$(PREFIX)/lib/carc/plugins
	install -m 755 build/install/carc $(DESTDIR)$(PREFIX)/bin/carc
	install -m 644 build/install/libcarc.a build/install/libcarc.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 kernel/carc.h kernel/carc_plugin.h $(DESTDIR)$(PREFIX)/include/carc/
	cp -r tiles variants weights docs web $(DESTDIR)$(PREFIX)/share/carc/
	@if ls build/install/plugins/*.so >/dev/null 2>&1; then install -m 755 build/install/plugins/*.so $(DESTDIR)$(PREFIX)/lib/carc/plugins/; fi
	@if [ -d scripts ]; then cp -r scripts $(DESTDIR)$(PREFIX)/share/carc/; fi
	sed -e 's|@PREFIX@|$(PREFIX)|g' carc.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/carc.pc

clean:
	rm -rf build

# The header lists the compiler wrote (-MMD -MP).
-include $(wildcard $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_BIN:=.d) $(BUILD)/bench/bench.d)
