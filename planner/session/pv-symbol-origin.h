/* pv-symbol-origin.h: where a symbolic dim comes from, so that a bound is
 * never set blind: a graph input's axis ("x axis 2", from its dim_param or
 * an unnamed dim), or the node whose op rule made it ("made by NonZero
 * “/nz”"). Read from a basis's shape inference; nothing is inferred. */
#pragma once

#include "pv-session-basis.h"

G_BEGIN_DECLS

/* symbol -> origin text (owned by the table) for every symbol @symbols
 * names that @basis's graph, or the graphs it is nested in, shows the
 * origin of: the first graph input (in input order) and axis whose dim is
 * exactly the symbol; else the first node (in execution order) with an
 * output whose dims mention it while none of its inputs' do. A body's
 * symbol that comes from its enclosing graph is looked for there
 * ("x axis 0" of the main graph). Symbols found nowhere are left out. */
GHashTable *pv_symbol_origins_new (const PvSessionBasis *basis, const char *const *symbols);

G_END_DECLS
