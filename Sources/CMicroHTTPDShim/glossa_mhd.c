#include "glossa_mhd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

struct MHD_Daemon *glossa_mhd_start(const struct glossa_mhd_settings *s,
                                    MHD_AccessHandlerCallback handler,
                                    MHD_RequestCompletedCallback completed,
                                    glossa_mhd_uri_logger uri_logger,
                                    MHD_NotifyConnectionCallback notify_connection,
                                    void *cls,
                                    char *error, size_t error_size) {
  // MHD binds during MHD_start_daemon, so the address may live on this stack frame.
  struct sockaddr_in v4;
  struct sockaddr_in6 v6;
  const struct sockaddr *address;
  // poll(), not epoll: quiescing an epoll daemon that runs its own threads (what a graceful
  // shutdown does first) races MHD's polling threads for the listening socket's removal from the
  // epoll set, and the loser calls MHD_PANIC ("Failed to remove listen FD from epoll set"), which
  // aborts the process (seen in the test suite with libmicrohttpd 0.9.75; an open MHD defect).
  // MHD's poll() side quiesces through its inter-thread channel instead, with no such race.
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_ALLOW_SUSPEND_RESUME;
  memset(&v4, 0, sizeof v4);
  memset(&v6, 0, sizeof v6);
  if (inet_pton(AF_INET, s->host, &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(s->port);
    address = (const struct sockaddr *)&v4;
  } else if (inet_pton(AF_INET6, s->host, &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(s->port);
    address = (const struct sockaddr *)&v6;
    flags |= MHD_USE_IPv6;
  } else {
    snprintf(error, error_size, "'%s' is not a numeric IPv4 or IPv6 address", s->host);
    return NULL;
  }
  errno = 0;
  struct MHD_Daemon *daemon = MHD_start_daemon(
      flags, s->port, NULL, NULL, handler, cls,
      MHD_OPTION_SOCK_ADDR, address,
      MHD_OPTION_URI_LOG_CALLBACK, uri_logger, cls,
      MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
      MHD_OPTION_NOTIFY_CONNECTION, notify_connection, cls,
      MHD_OPTION_CONNECTION_LIMIT, s->connection_limit,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, s->per_ip_connection_limit,
      MHD_OPTION_STRICT_FOR_CLIENT, s->strictness,
      MHD_OPTION_CONNECTION_TIMEOUT, s->connection_timeout,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, s->connection_memory_limit,
      // A pool of one is not a pool: MHD wants the option absent for a single polling thread.
      s->threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, s->threads,
      MHD_OPTION_END);
  if (daemon == NULL) {
    snprintf(error, error_size, "cannot listen on %s port %u: %s", s->host, (unsigned)s->port,
             errno != 0 ? strerror(errno) : "libmicrohttpd refused the settings");
  }
  return daemon;
}

uint16_t glossa_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

size_t glossa_mhd_client_address(struct MHD_Connection *connection, char *out, size_t out_size) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == NULL || info->client_addr == NULL || out_size == 0) return 0;
  const struct sockaddr *address = info->client_addr;
  const char *written = NULL;
  if (address->sa_family == AF_INET) {
    written = inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, out, (socklen_t)out_size);
  } else if (address->sa_family == AF_INET6) {
    written = inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, out, (socklen_t)out_size);
  }
  return written == NULL ? 0 : strlen(out);
}

int glossa_mhd_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}
