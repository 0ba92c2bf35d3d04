<?php
/**
 * Router for PHP's built-in web server serving WordPress (local tests only):
 *
 *   php -S 127.0.0.1:8089 -t /usr/share/wordpress scripts/wordpress/router.php
 *
 * - an existing static file is served as is by the built-in server;
 * - an existing .php file (wp-login.php, wp-admin/...) is run;
 * - a directory without a trailing slash is redirected to the slash form;
 * - anything else (pretty permalinks, /wp-json/...) goes to index.php.
 */

$router_root = rtrim($_SERVER['DOCUMENT_ROOT'], '/');
$router_path = '/' . ltrim(rawurldecode((string) parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH)), '/');

// Never leave the document root.
if (strpos($router_path, '/../') !== false || substr($router_path, -3) === '/..') {
    http_response_code(400);
    return true;
}

$router_file = $router_root . $router_path;

if (is_dir($router_file)) {
    if (substr($router_path, -1) !== '/') {
        $router_query = isset($_SERVER['QUERY_STRING']) && $_SERVER['QUERY_STRING'] !== '' ? '?' . $_SERVER['QUERY_STRING'] : '';
        header('Location: ' . $router_path . '/' . $router_query, true, 301);
        return true;
    }
    if (is_file($router_file . 'index.php')) {
        $router_path .= 'index.php';
        $router_file .= 'index.php';
    } else {
        // Let the built-in server answer (index.html or 404).
        return false;
    }
}

if (is_file($router_file)) {
    if (substr($router_file, -4) !== '.php') {
        // Static asset: served by the built-in server itself.
        return false;
    }
    $_SERVER['SCRIPT_NAME'] = $router_path;
    $_SERVER['PHP_SELF'] = $router_path;
    $_SERVER['SCRIPT_FILENAME'] = $router_file;
    chdir(dirname($router_file));
    require $router_file;
    return true;
}

// Unknown path: WordPress front controller.
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $router_root . '/index.php';
chdir($router_root);
require $router_root . '/index.php';
return true;
