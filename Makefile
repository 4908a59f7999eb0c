# carc - a Carcassonne rules engine.
#
#   make              libcarc (static and shared), the carc command, the plugins
#   make test         build and run every test
#   make check-asan   the same tests under AddressSanitizer and UBSan
#   make bench        the benchmark (games per second and more)
#   make deps         install the Debian packages carc needs
#   make install      PREFIX=/usr/local DESTDIR=
#
# Objects go to $(BUILD) (build/ by default; build/asan for the sanitizer run).

BUILD   ?= build
PREFIX  ?= /usr/local
DATADIR ?= $(CURDIR)
PLUGINDIR ?= $(CURDIR)/$(BUILD)/plugins
CC      ?= cc

DEPS_PKGS := lua5.4 inih cmocka
DEBIAN_PKGS := liblua5.4-dev libinih-dev libcmocka-dev pkg-config

# Install the libraries first when pkg-config cannot find them.
ifeq ($(filter deps clean,$(MAKECMDGOALS)),)
ifneq ($(shell pkg-config --exists $(DEPS_PKGS) 2>/dev/null && echo yes),yes)
$(info carc: installing missing build dependencies ($(DEBIAN_PKGS)))
$(shell $(MAKE) --no-print-directory deps >&2)
endif
endif

PKG_CFLAGS := $(shell pkg-config --cflags lua5.4 inih 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs lua5.4 inih 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

# snprintf into bounded buffers truncates on purpose: no format-truncation.
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers \
           -Wno-format-truncation
OPT     ?= -O2 -g
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) $(OPT) -fPIC \
           -Ikernel -Icli $(PKG_CFLAGS) -DCARC_DATADIR='"$(DATADIR)"' -DCARC_PLUGINDIR='"$(PLUGINDIR)"'
LDLIBS  += $(PKG_LIBS) -ldl -lm -lpthread

KERNEL_SRC := $(wildcard kernel/*.c)
CLI_SRC    := $(wildcard cli/*.c)
KERNEL_OBJ := $(KERNEL_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ    := $(CLI_SRC:%.c=$(BUILD)/%.o)
CLI_LIB_OBJ := $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ))

LIB_A  := $(BUILD)/libcarc.a
LIB_SO := $(BUILD)/libcarc.so
CARC   := $(BUILD)/carc

TEST_SRC  := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

PLUGIN_DIRS := $(wildcard plugins/*/)
PLUGIN_SO   := $(patsubst plugins/%/,$(BUILD)/plugins/%.so,$(PLUGIN_DIRS))
TEST_PLUGIN_DIRS := $(wildcard tests/plugins/*/)
TEST_PLUGIN_SO   := $(patsubst tests/plugins/%/,$(BUILD)/tests/plugins/%.so,$(TEST_PLUGIN_DIRS))

.PHONY: all test check-asan bench deps install clean
.DELETE_ON_ERROR:

all: $(LIB_A) $(LIB_SO) $(CARC) $(PLUGIN_SO)

$(BUILD)/%.o: %.c $(wildcard kernel/*.h cli/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB_A): $(KERNEL_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(LIB_SO): $(KERNEL_OBJ)
	$(CC) $(CFLAGS) -shared -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(CARC): $(CLI_OBJ) $(LIB_A)
	$(CC) $(CFLAGS) -rdynamic -o $@ $(CLI_OBJ) $(LIB_A) $(LDFLAGS) $(LDLIBS)

# Plugins see only the public plugin header, as a fan's out-of-tree build does.
$(BUILD)/plugins/%.so: plugins/%/*.c kernel/carc_plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -shared -o $@ $(filter %.c,$^)

$(BUILD)/tests/plugins/%.so: tests/plugins/%/*.c kernel/carc_plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -shared -o $@ $(filter %.c,$^)

$(BUILD)/tests/%: tests/%.c tests/*.h $(LIB_A) $(CLI_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(CLI_LIB_OBJ) $(LIB_A) $(LDFLAGS) $(LDLIBS) $(CMOCKA_LIBS)

# Every test: the cmocka programs, then the command-line tests.
test: all $(TEST_BIN) $(TEST_PLUGIN_SO)
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; CARC_DATA=$(CURDIR) CARC_PLUGIN_PATH=$(CURDIR)/$(BUILD)/tests/plugins $$t; done
	@CARC=$(CURDIR)/$(CARC) CARC_DATA=$(CURDIR) sh tests/cli_test.sh
	@if [ "$(BUILD)" = build ]; then sh tests/install_test.sh; fi

# The HTML replay page of carc render in headless chromium (Debian's package).
.PHONY: test-browser
test-browser: all
	@CARC=$(CURDIR)/$(CARC) CARC_DATA=$(CURDIR) sh tests/browser_test.sh

check-asan:
	$(MAKE) BUILD=build/asan OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	        LDFLAGS="-fsanitize=address,undefined" CARC_TEST_GAMES=300 test

bench: $(BUILD)/bench/bench $(CARC) $(PLUGIN_SO) $(TEST_PLUGIN_SO)
	CARC_DATA=$(CURDIR) CARC_PLUGIN_PATH=$(CURDIR)/$(BUILD)/tests/plugins $(BUILD)/bench/bench

$(BUILD)/bench/bench: bench/bench.c $(LIB_A) $(CLI_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -O3 -o $@ $< $(CLI_LIB_OBJ) $(LIB_A) $(LDFLAGS) $(LDLIBS)

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
	cp -r tiles variants docs $(DESTDIR)$(PREFIX)/share/carc/
	@if ls build/install/plugins/*.so >/dev/null 2>&1; then install -m 755 build/install/plugins/*.so $(DESTDIR)$(PREFIX)/lib/carc/plugins/; fi
	@if [ -d scripts ]; then cp -r scripts $(DESTDIR)$(PREFIX)/share/carc/; fi
	sed -e 's|@PREFIX@|$(PREFIX)|g' carc.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/carc.pc

clean:
	rm -rf build
