<?php
/**
 * Plugin Name: Turismo Tickets
 * Description: Post type "turismo_ticket" (REST base "turismo-tickets") and the ticket meta fields used by the tourism portal's POST /api/turismo/ticket.
 * Version: 1.0.0
 *
 * Must-use plugin. Install by copying this file into wp-content/mu-plugins/
 * (create the folder if needed; on Debian's package that is
 * /var/lib/wordpress/wp-content/mu-plugins/). Must-use plugins load
 * automatically, there is nothing to activate.
 *
 * The portal writes tickets through the REST API with an Application Password
 * (HTTP Basic), as status "private": tickets carry personal data (name, e-mail,
 * phone), so the post type is not public and the ticket meta is only shown to
 * users who can edit the post. The same meta is also registered on "post" so a
 * plain install can use WP_POST_TYPE=posts.
 */

if (!defined('ABSPATH')) {
    exit;
}

/** Meta keys stored on each ticket (all single strings). */
function turismo_ticket_meta_keys(): array
{
    return [
        'turismo_name',
        'turismo_email',
        'turismo_phone',
        'turismo_share_code',
        'turismo_user_id',
    ];
}

add_action('init', function (): void {
    register_post_type('turismo_ticket', [
        'labels' => [
            'name' => 'Turismo tickets',
            'singular_name' => 'Turismo ticket',
        ],
        'description' => 'Tickets created by the tourism portal (personal data).',
        // Not on the front end: no archive, no single view, no search, no nav menus.
        'public' => false,
        'publicly_queryable' => false,
        'exclude_from_search' => true,
        'show_in_nav_menus' => false,
        'has_archive' => false,
        'rewrite' => false,
        'query_var' => false,
        // Visible to editors in wp-admin and over the REST API.
        'show_ui' => true,
        'show_in_menu' => true,
        'menu_icon' => 'dashicons-tickets-alt',
        'show_in_rest' => true,
        'rest_base' => 'turismo-tickets',
        'capability_type' => 'post',
        'map_meta_cap' => true,
        'supports' => ['title', 'custom-fields'],
    ]);

    foreach (['turismo_ticket', 'post'] as $post_type) {
        foreach (turismo_ticket_meta_keys() as $key) {
            register_post_meta($post_type, $key, [
                'show_in_rest' => true,
                'single' => true,
                'type' => 'string',
                'auth_callback' => fn() => current_user_can('edit_posts'),
            ]);
        }
    }
});

/*
 * Defence in depth: registered meta is part of every REST response for a post
 * its reader may see (e.g. a "post" published by mistake). Drop the ticket
 * meta from responses for readers who cannot edit the post.
 */
foreach (['turismo_ticket', 'post'] as $turismo_post_type) {
    add_filter(
        "rest_prepare_{$turismo_post_type}",
        function ($response, $post) {
            if (current_user_can('edit_post', $post->ID)) {
                return $response;
            }
            $data = $response->get_data();
            if (isset($data['meta']) && is_array($data['meta'])) {
                foreach (turismo_ticket_meta_keys() as $key) {
                    unset($data['meta'][$key]);
                }
                $response->set_data($data);
            }
            return $response;
        },
        10,
        2
    );
}
unset($turismo_post_type);

/*
 * Make bad credentials fail loudly. WP_REST_Server::serve_request() forgets
 * the (anonymous) user resolved before the request was known to be a REST one,
 * and nothing resolves it again before core's Application Password check at
 * priority 90, so a wrong password was silently served as an anonymous request
 * (e.g. 400 "Status is forbidden" for status=any). Resolving the user here lets
 * that check answer 401 "incorrect_password" / "invalid_username".
 */
add_filter('rest_authentication_errors', function ($result) {
    wp_get_current_user();
    return $result;
}, 89);

/*
 * Tickets are never readable anonymously, whatever their status: any request
 * to /wp/v2/turismo-tickets needs a user who can edit posts.
 */
add_filter('rest_request_before_callbacks', function ($response, $handler, $request) {
    if (is_wp_error($response)) {
        return $response;
    }
    $route = $request->get_route();
    if (
        preg_match('#^/wp/v2/turismo-tickets(/|$)#', $route)
        && !current_user_can('edit_posts')
    ) {
        return new WP_Error(
            'rest_forbidden',
            'Sorry, you are not allowed to access turismo tickets.',
            ['status' => rest_authorization_required_code()]
        );
    }
    return $response;
}, 10, 3);
