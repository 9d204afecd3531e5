/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include "seismo-reveal-model.h"

struct _SeismoRevealModel
{
  GObject     parent_instance;
  GListModel *model;   /* owned */
  guint       limit;   /* G_MAXUINT: all of it */
};

static GType
seismo_reveal_model_get_item_type (GListModel *list)
{
  return g_list_model_get_item_type (SEISMO_REVEAL_MODEL (list)->model);
}

static guint
seismo_reveal_model_get_n_items (GListModel *list)
{
  SeismoRevealModel *self = SEISMO_REVEAL_MODEL (list);

  return MIN (g_list_model_get_n_items (self->model), self->limit);
}

static gpointer
seismo_reveal_model_get_item (GListModel *list,
                              guint       position)
{
  SeismoRevealModel *self = SEISMO_REVEAL_MODEL (list);

  if (position >= self->limit)
    return NULL;
  return g_list_model_get_item (self->model, position);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = seismo_reveal_model_get_item_type;
  iface->get_n_items = seismo_reveal_model_get_n_items;
  iface->get_item = seismo_reveal_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (SeismoRevealModel, seismo_reveal_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
on_items_changed (SeismoRevealModel *self,
                  guint              position,
                  guint              removed,
                  guint              added,
                  GListModel        *model)
{
  guint n_after, n_before;

  if (self->limit == G_MAXUINT)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
      return;
    }
  /* While limited (its owner lifts the limit before changing the model, so this is a fallback):
   * the change as seen through the limit. */
  if (position >= self->limit)
    return;
  n_after = MIN (g_list_model_get_n_items (model), self->limit);
  n_before = MIN (g_list_model_get_n_items (model) - added + removed, self->limit);
  g_list_model_items_changed (G_LIST_MODEL (self), position, n_before - position, n_after - position);
}

static void
seismo_reveal_model_dispose (GObject *object)
{
  SeismoRevealModel *self = SEISMO_REVEAL_MODEL (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, on_items_changed, self);
  g_clear_object (&self->model);
  G_OBJECT_CLASS (seismo_reveal_model_parent_class)->dispose (object);
}

static void
seismo_reveal_model_class_init (SeismoRevealModelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = seismo_reveal_model_dispose;
}

static void
seismo_reveal_model_init (SeismoRevealModel *self)
{
  self->limit = G_MAXUINT;
}

SeismoRevealModel *
seismo_reveal_model_new (GListModel *model,
                         guint       limit)
{
  SeismoRevealModel *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (model), NULL);
  self = g_object_new (SEISMO_TYPE_REVEAL_MODEL, NULL);
  self->model = g_object_ref (model);
  self->limit = limit;
  g_signal_connect_swapped (model, "items-changed", G_CALLBACK (on_items_changed), self);
  return self;
}

void
seismo_reveal_model_set_limit (SeismoRevealModel *self,
                               guint              limit)
{
  guint old_n, new_n;

  g_return_if_fail (SEISMO_IS_REVEAL_MODEL (self));
  g_return_if_fail (limit >= self->limit);
  old_n = seismo_reveal_model_get_n_items (G_LIST_MODEL (self));
  self->limit = limit;
  new_n = seismo_reveal_model_get_n_items (G_LIST_MODEL (self));
  if (new_n > old_n)
    g_list_model_items_changed (G_LIST_MODEL (self), old_n, 0, new_n - old_n);
}

guint
seismo_reveal_model_get_limit (SeismoRevealModel *self)
{
  g_return_val_if_fail (SEISMO_IS_REVEAL_MODEL (self), G_MAXUINT);
  return self->limit;
}
