//go:build linux && cgo && (desktop || dev)

// The WebKitGTK side of the navigation lock: find the app's WebKitWebView in
// the toplevel windows and answer its decide-policy signal through Go.
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include "_cgo_export.h"

static const char *cause_name(WebKitNavigationType t) {
    switch (t) {
    case WEBKIT_NAVIGATION_TYPE_LINK_CLICKED: return "link";
    case WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED: return "form";
    case WEBKIT_NAVIGATION_TYPE_BACK_FORWARD: return "back-forward";
    case WEBKIT_NAVIGATION_TYPE_RELOAD: return "reload";
    case WEBKIT_NAVIGATION_TYPE_FORM_RESUBMITTED: return "form-resubmit";
    default: return "other";
    }
}

static gboolean on_decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision,
                                 WebKitPolicyDecisionType type, gpointer data) {
    (void)view; (void)data;
    if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION &&
        type != WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION) {
        return FALSE; // responses: the navigation that led to them was decided already
    }
    WebKitNavigationAction *action =
        webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
    WebKitURIRequest *request = action ? webkit_navigation_action_get_request(action) : NULL;
    const char *uri = request ? webkit_uri_request_get_uri(request) : NULL;
    int allow = navlockDecide(type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION,
                              (char *)(uri ? uri : ""),
                              (char *)(action ? cause_name(webkit_navigation_action_get_navigation_type(action)) : "other"),
                              action ? (int)webkit_navigation_action_get_mouse_button(action) : 0,
                              action ? webkit_navigation_action_is_user_gesture(action) : 0);
    if (allow) {
        return FALSE; // WebKit's default: go ahead
    }
    webkit_policy_decision_ignore(decision);
    return TRUE;
}

// window.open() asks for a new view directly ("create"), without a
// new-window policy decision: refused here, and logged like the others.
static GtkWidget *on_create(WebKitWebView *view, WebKitNavigationAction *action, gpointer data) {
    (void)view; (void)data;
    WebKitURIRequest *request = action ? webkit_navigation_action_get_request(action) : NULL;
    const char *uri = request ? webkit_uri_request_get_uri(request) : NULL;
    navlockDecide(1, (char *)(uri ? uri : ""), (char *)"script",
                  action ? (int)webkit_navigation_action_get_mouse_button(action) : 0,
                  action ? webkit_navigation_action_is_user_gesture(action) : 0);
    return NULL;
}

static WebKitWebView *find_webview(GtkWidget *w) {
    if (WEBKIT_IS_WEB_VIEW(w)) {
        return WEBKIT_WEB_VIEW(w);
    }
    WebKitWebView *found = NULL;
    if (GTK_IS_CONTAINER(w)) {
        GList *children = gtk_container_get_children(GTK_CONTAINER(w));
        for (GList *l = children; l != NULL && found == NULL; l = l->next) {
            found = find_webview(GTK_WIDGET(l->data));
        }
        g_list_free(children);
    }
    return found;
}

static int tries;

static gboolean attach(gpointer data) {
    (void)data;
    WebKitWebView *view = NULL;
    GList *tops = gtk_window_list_toplevels();
    for (GList *l = tops; l != NULL && view == NULL; l = l->next) {
        view = find_webview(GTK_WIDGET(l->data));
    }
    g_list_free(tops);
    if (view == NULL) {
        if (++tries < 500) {
            return G_SOURCE_CONTINUE; // the window is not packed yet
        }
        navlockAttached(0, (char *)"the app's webview was not found");
        return G_SOURCE_REMOVE;
    }
    if (g_object_get_data(G_OBJECT(view), "cdxtheme-navlock") == NULL) {
        g_object_set_data(G_OBJECT(view), "cdxtheme-navlock", GINT_TO_POINTER(1));
        g_signal_connect(view, "decide-policy", G_CALLBACK(on_decide_policy), NULL);
        g_signal_connect(view, "create", G_CALLBACK(on_create), NULL);
        WebKitSettings *settings = webkit_web_view_get_settings(view);
        webkit_settings_set_javascript_can_open_windows_automatically(settings, FALSE);
    }
    const char *uri = webkit_web_view_get_uri(view);
    navlockAttached(1, (char *)(uri ? uri : ""));
    return G_SOURCE_REMOVE;
}

void navlockStart(void) {
    // Runs on the GTK main loop; safe to call from any thread.
    g_timeout_add(10, attach, NULL);
}
