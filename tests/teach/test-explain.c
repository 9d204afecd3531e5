/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <errno.h>
#include <string.h>

#include "seismo-explain.h"
#include "seismo-syscalls.h"
#include "seismo-test-util.h"

static void
check_items (const SeismoExplanation *e)
{
  for (guint i = 0; i < e->n_items; i++)
    {
      g_assert_nonnull (e->items[i].name);
      g_assert_cmpstr (e->items[i].name, !=, "");
      g_assert_null (strchr (e->items[i].name, ' '));
    }
}

static void
check_man (const SeismoExplanation *e)
{
  if (e->man_page == NULL)
    return;
  g_assert_true (g_str_has_prefix (e->man_uri, "man:"));
  g_assert_cmpstr (e->man_uri + 4, ==, e->man_page);
  g_assert_nonnull (e->web_url);
  g_assert_true (g_str_has_prefix (e->web_url, "https://man7.org/linux/man-pages/man"));
  g_assert_true (g_str_has_suffix (e->web_url, ".html"));
}

/* The requirement: every name in the x86-64 table has an explanation. */
static void
test_every_syscall (void)
{
  guint n = seismo_syscall_table_size (SEISMO_ARCH_X86_64);
  guint named = 0, with_man = 0, with_args = 0;

  g_assert_cmpuint (n, >, 300);
  for (guint nr = 0; nr < n; nr++)
    {
      const char *name = seismo_syscall_name (SEISMO_ARCH_X86_64, nr);
      g_autoptr(SeismoExplanation) e = NULL;

      if (name == NULL)
        continue;
      named++;
      e = seismo_explain_syscall (name);
      if (e == NULL)
        g_error ("no explanation for syscall %u %s", nr, name);
      g_assert_cmpint (e->kind, ==, SEISMO_EXPLAIN_SYSCALL);
      g_assert_nonnull (e->title);
      g_assert_true (g_str_has_prefix (e->title, name));
      g_assert_nonnull (e->summary);
      g_assert_cmpuint (strlen (e->summary), >, 8);
      g_assert_null (strchr (e->summary, '\n'));
      check_items (e);
      check_man (e);
      with_man += e->man_page != NULL;
      with_args += e->n_items > 0;
    }
  g_assert_cmpuint (named, >, 300);
  /* Nearly all have a man page and arguments; only the unimplemented ones lack arguments. */
  g_assert_cmpuint (with_man, >, named * 9 / 10);
  g_assert_cmpuint (with_args, >, named * 9 / 10);
  g_test_message ("%u syscalls explained, %u with a man page, %u with arguments",
                  named, with_man, with_args);

  /* 32-bit programs' names too (i386: socketcall, _llseek, chown32, clock_gettime64…). */
  n = seismo_syscall_table_size (SEISMO_ARCH_I386);
  g_assert_cmpuint (n, >, 300);
  for (guint nr = 0; nr < n; nr++)
    {
      const char *name = seismo_syscall_name (SEISMO_ARCH_I386, nr);
      g_autoptr(SeismoExplanation) e = NULL;

      if (name == NULL)
        continue;
      if ((e = seismo_explain_syscall (name)) == NULL)
        g_error ("no explanation for i386 syscall %u %s", nr, name);
      g_assert_cmpuint (strlen (e->summary), >=, strlen ("Set time"));
      check_items (e);
      check_man (e);
    }
}

static void
test_syscall_details (void)
{
  g_autoptr(SeismoExplanation) openat = seismo_explain_syscall ("openat");
  g_autoptr(SeismoExplanation) newstat = seismo_explain_syscall ("newstat");
  g_autoptr(SeismoExplanation) copy = NULL;
  g_autoptr(GPtrArray) names = seismo_explain_list_syscalls ();
  g_autofree char *text = NULL;

  g_assert_nonnull (openat);
  g_assert_cmpstr (openat->title, ==, "openat(2)");
  g_assert_cmpstr (openat->man_uri, ==, "man:openat(2)");
  /* openat(2) is a link to open(2): the web page holding the text is open.2. */
  g_assert_cmpstr (openat->web_url, ==, "https://man7.org/linux/man-pages/man2/open.2.html");
  g_assert_cmpuint (openat->n_items, ==, 4);
  g_assert_cmpstr (openat->items[0].name, ==, "dfd");
  g_assert_cmpstr (openat->items[1].name, ==, "filename");
  g_assert_cmpstr (openat->items[1].type, ==, "const char *");

  /* The kernel's tracepoint spelling leads to the table's entry. */
  g_assert_nonnull (newstat);
  g_assert_cmpstr (newstat->title, ==, "stat(2)");

  g_assert_null (seismo_explain_syscall ("no_such_syscall"));

  copy = seismo_explanation_copy (openat);
  g_assert_cmpstr (copy->summary, ==, openat->summary);
  g_assert_cmpstr (copy->items[3].name, ==, openat->items[3].name);
  text = seismo_explanation_to_text (copy);
  g_assert_nonnull (strstr (text, "openat(2)"));
  g_assert_nonnull (strstr (text, "filename"));

  g_assert_cmpuint (names->len, >=, seismo_syscall_table_size (SEISMO_ARCH_X86_64) - 100);
  for (guint i = 1; i < names->len; i++)
    g_assert_cmpint (strcmp (g_ptr_array_index (names, i - 1), g_ptr_array_index (names, i)), <, 0);
  g_assert_true (g_ptr_array_find_with_equal_func (names, "read", g_str_equal, NULL));
  g_assert_false (g_ptr_array_find_with_equal_func (names, "newstat", g_str_equal, NULL));
}

static void
test_syscall_tracepoints (void)
{
  g_autoptr(SeismoExplanation) enter = seismo_explain_event ("syscalls", "sys_enter_openat");
  g_autoptr(SeismoExplanation) exit_ = seismo_explain_event ("syscalls", "sys_exit_openat");

  g_assert_nonnull (enter);
  g_assert_cmpint (enter->kind, ==, SEISMO_EXPLAIN_EVENT);
  g_assert_cmpstr (enter->title, ==, "syscalls:sys_enter_openat");
  g_assert_cmpuint (enter->n_items, ==, 4);
  g_assert_cmpstr (enter->man_page, ==, "openat(2)");
  g_assert_nonnull (exit_);
  g_assert_cmpuint (exit_->n_items, ==, 1);
  g_assert_cmpstr (exit_->items[0].name, ==, "ret");
  g_assert_null (seismo_explain_event ("syscalls", "sys_enter_nonexistent"));
}

/* The tracepoints the issue names: sched, irq, raw_syscalls, signal, common block and net. */
static void
test_tracepoints (void)
{
  static const char *const required[] = {
    "sched:sched_switch", "sched:sched_wakeup", "sched:sched_wakeup_new", "sched:sched_waking",
    "sched:sched_migrate_task", "sched:sched_process_fork", "sched:sched_process_exec",
    "sched:sched_process_exit", "sched:sched_process_free", "sched:sched_process_wait",
    "sched:sched_stat_runtime", "sched:sched_pi_setprio", "sched:sched_kthread_stop",
    "irq:irq_handler_entry", "irq:irq_handler_exit", "irq:softirq_entry", "irq:softirq_exit",
    "irq:softirq_raise", "irq:tasklet_entry", "irq:tasklet_exit",
    "raw_syscalls:sys_enter", "raw_syscalls:sys_exit",
    "signal:signal_generate", "signal:signal_deliver",
    "block:block_bio_queue", "block:block_bio_complete", "block:block_rq_insert",
    "block:block_rq_issue", "block:block_rq_complete", "block:block_rq_requeue",
    "block:block_bio_backmerge", "block:block_plug", "block:block_unplug",
    "net:net_dev_queue", "net:net_dev_xmit", "net:netif_receive_skb", "net:netif_rx",
    "net:napi_gro_receive_entry", "napi:napi_poll", "skb:kfree_skb",
    "sock:inet_sock_set_state", "tcp:tcp_retransmit_skb", "task:task_rename",
    "task:task_newtask",
  };

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    {
      g_auto(GStrv) parts = g_strsplit (required[i], ":", 2);
      g_autoptr(SeismoExplanation) e = seismo_explain_event (parts[0], parts[1]);

      if (e == NULL)
        g_error ("no explanation for %s", required[i]);
      g_assert_cmpstr (e->title, ==, required[i]);
      g_assert_cmpuint (strlen (e->summary), >, 10);
      g_assert_cmpuint (e->n_items, >, 0);
      check_items (e);
      check_man (e);
    }

  {
    g_autoptr(SeismoExplanation) sw = seismo_explain_event ("sched", "sched_switch");
    static const char *const fields[] = {
      "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio",
    };

    /* The brief's field names, each explained. */
    g_assert_cmpuint (sw->n_items, ==, G_N_ELEMENTS (fields));
    for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
      {
        g_assert_cmpstr (sw->items[i].name, ==, fields[i]);
        g_assert_nonnull (sw->items[i].description);
      }
    g_assert_nonnull (sw->description);
  }
  {
    /* An event the data does not know, in a system it does: the system's explanation. */
    g_autoptr(SeismoExplanation) other = seismo_explain_event ("sched", "sched_new_thing");
    g_autoptr(SeismoExplanation) probe = seismo_explain_event ("kprobe", "do_sys_openat2");

    g_assert_nonnull (other);
    g_assert_cmpstr (other->title, ==, "sched:sched_new_thing");
    g_assert_cmpuint (other->n_items, ==, 0);
    g_assert_nonnull (probe);
    g_assert_null (seismo_explain_event ("nosuchsystem", "x"));
  }
}

static void
test_errno (void)
{
  g_autoptr(SeismoExplanation) enoent = seismo_explain_errno (ENOENT);
  g_autoptr(SeismoExplanation) negative = seismo_explain_errno (-ENOENT);
  g_autoptr(SeismoExplanation) restart = seismo_explain_errno (-512);

  g_assert_nonnull (enoent);
  g_assert_cmpint (enoent->kind, ==, SEISMO_EXPLAIN_ERRNO);
  g_assert_cmpstr (enoent->title, ==, "ENOENT (2)");
  g_assert_cmpstr (enoent->summary, ==, g_strerror (ENOENT));
  g_assert_nonnull (enoent->description);
  g_assert_cmpstr (enoent->man_uri, ==, "man:errno(3)");
  g_assert_cmpstr (negative->title, ==, enoent->title);

  g_assert_nonnull (restart);
  g_assert_cmpstr (restart->title, ==, "ERESTARTSYS (512)");
  g_assert_nonnull (strstr (restart->summary, "SA_RESTART"));

  g_assert_null (seismo_explain_errno (0));
  g_assert_null (seismo_explain_errno (100000));

  /* Every errno with a name has at least the C library's message. */
  for (int n = 1; n < 4096; n++)
    if (seismo_errno_name (n) != NULL)
      {
        g_autoptr(SeismoExplanation) e = seismo_explain_errno (n);

        g_assert_nonnull (e);
        g_assert_true (g_str_has_prefix (e->title, seismo_errno_name (n)));
        g_assert_cmpstr (e->summary, !=, "");
      }
}

static void
test_sched_state (void)
{
  const char *letters = "RSDTtXZPI+KWNx";

  for (const char *p = letters; *p; p++)
    {
      char one[2] = { *p, 0 };
      g_autoptr(SeismoExplanation) e = seismo_explain_sched_state (one);

      g_assert_nonnull (e);
      g_assert_cmpint (e->kind, ==, SEISMO_EXPLAIN_SCHED_STATE);
      g_assert_cmpstr (e->title, ==, one);
      g_assert_cmpuint (e->n_items, ==, 1);
      g_assert_nonnull (e->description);
      g_assert_null (strstr (e->summary, "(null)"));
      g_assert_null (strstr (e->items[0].description, "(null)"));
    }
  {
    g_autoptr(SeismoExplanation) rp = seismo_explain_sched_state ("R+");
    g_autoptr(SeismoExplanation) dk = seismo_explain_sched_state ("D|K");

    g_assert_cmpuint (rp->n_items, ==, 2);
    g_assert_cmpstr (rp->items[1].name, ==, "+");
    g_assert_cmpuint (dk->n_items, ==, 2);
    g_assert_cmpstr (dk->items[0].name, ==, "D");
    g_assert_cmpstr (dk->items[1].name, ==, "K");
  }
  g_assert_null (seismo_explain_sched_state (""));
  g_assert_null (seismo_explain_sched_state ("|"));
  g_assert_null (seismo_explain_sched_state ("Q"));
  g_assert_null (seismo_explain_sched_state ("SQ"));
}

static gboolean
has_kind (GPtrArray         *list,
          SeismoExplainKind  kind)
{
  for (guint i = 0; i < list->len; i++)
    if (((SeismoExplanation *) g_ptr_array_index (list, i))->kind == kind)
      return TRUE;
  return FALSE;
}

static void
test_trace_event (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (5000, 7);
  gboolean seen_enter = FALSE, seen_error = FALSE, seen_switch = FALSE;

  for (SeismoEventId ev = 0; ev < seismo_trace_get_n_events (trace); ev++)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, ev);
      g_autoptr(GPtrArray) list = seismo_explain_trace_event (trace, ev);
      SeismoValue v;

      if (strcmp (type->system, "test") == 0)
        {
          g_assert_cmpuint (list->len, ==, 0);
          continue;
        }
      g_assert_cmpuint (list->len, >, 0);
      switch (type->kind)
        {
        case SEISMO_KIND_SYSCALL_ENTER:
          /* raw_syscalls: the syscall by number, then the tracepoint. */
          g_assert_true (has_kind (list, SEISMO_EXPLAIN_SYSCALL));
          g_assert_true (has_kind (list, SEISMO_EXPLAIN_EVENT));
          seen_enter = TRUE;
          break;
        case SEISMO_KIND_SYSCALL_EXIT:
          g_assert_true (seismo_trace_event_field_by_name (trace, ev, "ret", &v));
          g_assert_cmpint (has_kind (list, SEISMO_EXPLAIN_ERRNO), ==, v.i == -2);
          seen_error |= v.i == -2;
          break;
        case SEISMO_KIND_SCHED_SWITCH:
          g_assert_true (has_kind (list, SEISMO_EXPLAIN_SCHED_STATE));
          seen_switch = TRUE;
          break;
        default:
          break;
        }
    }
  g_assert_true (seen_enter);
  g_assert_true (seen_error);
  g_assert_true (seen_switch);
}

/* Per-syscall tracepoints (ptrace, ftrace syscalls:*): the syscall's own entry, and the errno. */
static void
test_trace_event_per_syscall (void)
{
  g_autoptr(SeismoTraceBuilder) b = seismo_trace_builder_new ();
  const SeismoFieldInfo enter_fields[] = { { "filename", SEISMO_FIELD_STRING, 8 } };
  const SeismoFieldInfo exit_fields[] = { { "ret", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_ERRNO } };
  guint enter = seismo_trace_builder_add_event_type (b, "syscalls", "sys_enter_openat",
                                                     enter_fields, 1, NULL);
  guint exit_ = seismo_trace_builder_add_event_type (b, "syscalls", "sys_exit_openat",
                                                     exit_fields, 1, NULL);
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GPtrArray) on_enter = NULL;
  g_autoptr(GPtrArray) on_exit = NULL;
  SeismoExplanation *e;

  seismo_trace_builder_begin_event (b, 100, 0, 42, enter);
  seismo_trace_builder_push_string (b, "/etc/shadow");
  seismo_trace_builder_end_event (b);
  seismo_trace_builder_begin_event (b, 200, 0, 42, exit_);
  seismo_trace_builder_push_int (b, -EACCES);
  seismo_trace_builder_end_event (b);
  trace = seismo_trace_builder_finish (g_steal_pointer (&b));

  on_enter = seismo_explain_trace_event (trace, 0);
  g_assert_cmpuint (on_enter->len, ==, 1);
  e = g_ptr_array_index (on_enter, 0);
  g_assert_cmpstr (e->title, ==, "syscalls:sys_enter_openat");
  g_assert_cmpstr (e->man_page, ==, "openat(2)");

  on_exit = seismo_explain_trace_event (trace, 1);
  g_assert_cmpuint (on_exit->len, ==, 3);
  e = g_ptr_array_index (on_exit, 0);
  g_assert_cmpstr (e->title, ==, "syscalls:sys_exit_openat");
  /* The call's own explanation, with the arguments the exit event does not carry. */
  e = g_ptr_array_index (on_exit, 1);
  g_assert_cmpint (e->kind, ==, SEISMO_EXPLAIN_SYSCALL);
  g_assert_cmpuint (e->n_items, >=, 3);
  e = g_ptr_array_index (on_exit, 2);
  g_assert_cmpint (e->kind, ==, SEISMO_EXPLAIN_ERRNO);
  g_assert_cmpstr (e->title, ==, "EACCES (13)");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/explain/every-syscall", test_every_syscall);
  g_test_add_func ("/explain/syscall-details", test_syscall_details);
  g_test_add_func ("/explain/syscall-tracepoints", test_syscall_tracepoints);
  g_test_add_func ("/explain/tracepoints", test_tracepoints);
  g_test_add_func ("/explain/errno", test_errno);
  g_test_add_func ("/explain/sched-state", test_sched_state);
  g_test_add_func ("/explain/trace-event", test_trace_event);
  g_test_add_func ("/explain/trace-event-per-syscall", test_trace_event_per_syscall);
  return g_test_run ();
}
