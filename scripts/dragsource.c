// A drag source for the navigation window test: a small GTK window that
// offers one URI (argv[1]) as a link or file would be dragged from a browser
// or a file manager, placed at argv[2],argv[3].
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

static const char *uri;

static void get_data(GtkWidget *w, GdkDragContext *ctx, GtkSelectionData *sel, guint info, guint time, gpointer data) {
    (void)w; (void)ctx; (void)time; (void)data;
    if (info == 0) {
        gchar *uris[] = {(gchar *)uri, NULL};
        gtk_selection_data_set_uris(sel, uris);
    } else {
        gtk_selection_data_set_text(sel, uri, -1);
    }
}

// The driver waits for these lines: the drop is over only once the target
// has taken the data and said so (drag-end); killing the source sooner
// can leave the target asking a source that is gone.
static gboolean failed(GtkWidget *w, GdkDragContext *ctx, GtkDragResult result, gpointer data) {
    (void)w; (void)ctx; (void)data;
    printf("drag-failed %d\n", (int)result);
    fflush(stdout);
    return FALSE;
}

static void ended(GtkWidget *w, GdkDragContext *ctx, gpointer data) {
    (void)w; (void)ctx; (void)data;
    printf("drag-end\n");
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc < 4) return 2;
    uri = argv[1];
    gtk_init(&argc, &argv);
    GtkWidget *win = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_title(GTK_WINDOW(win), "cdxtheme drag source");
    gtk_window_set_default_size(GTK_WINDOW(win), 200, 60);
    gtk_window_move(GTK_WINDOW(win), atoi(argv[2]), atoi(argv[3]));
    GtkWidget *box = gtk_event_box_new();
    gtk_container_add(GTK_CONTAINER(box), gtk_label_new("drag me"));
    gtk_container_add(GTK_CONTAINER(win), box);
    GtkTargetEntry targets[] = {{"text/uri-list", 0, 0}, {"_NETSCAPE_URL", 0, 1}, {"text/plain", 0, 2}, {"UTF8_STRING", 0, 3}};
    gtk_drag_source_set(box, GDK_BUTTON1_MASK, targets, 4, GDK_ACTION_COPY | GDK_ACTION_LINK | GDK_ACTION_MOVE);
    g_signal_connect(box, "drag-data-get", G_CALLBACK(get_data), NULL);
    g_signal_connect(box, "drag-failed", G_CALLBACK(failed), NULL);
    g_signal_connect(box, "drag-end", G_CALLBACK(ended), NULL);
    g_signal_connect(win, "destroy", G_CALLBACK(gtk_main_quit), NULL);
    gtk_widget_show_all(win);
    gtk_main();
    return 0;
}
