/* planviz-cli: planviz without a window. */
#include "pv-cli.h"

int
main (int argc, char **argv)
{
  return pv_cli_main (argc, argv);
}
