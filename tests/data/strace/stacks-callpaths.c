#include <fcntl.h>
#include <unistd.h>
#include <time.h>

static char buf[256];

__attribute__((noinline)) static void parse_config (int fd)
{
  for (int i = 0; i < 3; i++)
    if (read (fd, buf, 16) <= 0)
      break;
}

__attribute__((noinline)) static void read_config (void)
{
  int fd = open ("/etc/hostname", O_RDONLY);
  if (fd < 0)
    fd = open ("/dev/zero", O_RDONLY);
  parse_config (fd);
  close (fd);
}

__attribute__((noinline)) static void write_log (int n)
{
  int fd = open ("/dev/null", O_WRONLY);
  for (int i = 0; i < n; i++)
    write (fd, "log line\n", 9);
  close (fd);
}

__attribute__((noinline)) static void take_a_nap (void)
{
  struct timespec ts = { 0, 20 * 1000 * 1000 };
  nanosleep (&ts, NULL);
}

int main (void)
{
  read_config ();
  write_log (12);
  take_a_nap ();
  read_config ();
  return 0;
}
