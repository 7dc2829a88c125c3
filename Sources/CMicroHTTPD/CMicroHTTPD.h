// libmicrohttpd from Debian's libmicrohttpd-dev, seen by Swift as the module CMicroHTTPD.
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
